#include "api/buildlogstream.h"

#include "api/sseencoder.h"

namespace lizard::api {

namespace {

// A client that does not read is cut past this much queued text (a log holds at most 4 MiB).
constexpr size_t kMaxUnsentLogBytes = 8 << 20;

} // namespace

BuildLogStream::BuildLogStream(std::shared_ptr<http::Exchange> exchange,
                               std::shared_ptr<sandboxes::BuildLog> log,
                               std::function<nlohmann::json()> build)
    : EventStream(std::move(exchange)), m_log(std::move(log)), m_build(std::move(build))
{
}

std::string BuildLogStream::lineEvent(const std::string& line)
{
    return "event: log\n" + sseEvent(nlohmann::json{{"line", line}});
}

std::string BuildLogStream::endEvent(const nlohmann::json& build)
{
    return "event: end\n" + sseEvent(build);
}

void BuildLogStream::start(std::vector<std::string> endedLines)
{
    cancelOnHangUp();
    m_writer->begin(200, "text/event-stream", std::nullopt);
    std::string text;
    if (!m_log) {
        for (const auto& l : endedLines)
            text += lineEvent(l);
        return finish(text + endEvent(m_build()));
    }
    auto self = selfAs<BuildLogStream>();
    auto executor = m_ex->executor();
    // The build's record is final before its log ends: the `end` event reads it then.
    auto sub = m_log->subscribe([self, executor](const std::string* line) {
        std::optional<std::string> event;
        if (line)
            event = lineEvent(*line);
        http::net::post(executor, [self, event = std::move(event)]() mutable {
            if (!event) {
                self->m_token = 0; // the log dropped its listeners itself
                return self->finish(endEvent(self->m_build()));
            }
            self->send(std::move(*event));
        });
    });
    m_token = sub.token;
    for (const auto& l : sub.lines)
        text += lineEvent(l);
    if (sub.ended)
        return finish(text + endEvent(m_build()));
    send(text.empty() ? std::string(": following\n\n") : std::move(text));
}

void BuildLogStream::send(std::string text)
{
    if (m_finished)
        return;
    if (!writeWithin(std::move(text), kMaxUnsentLogBytes))
        cancel();
}

void BuildLogStream::finish(std::string text)
{
    if (m_finished)
        return;
    m_finished = true;
    unsubscribe();
    m_writer->write(std::move(text));
    m_writer->end();
}

void BuildLogStream::cancel()
{
    if (m_finished)
        return;
    m_finished = true;
    unsubscribe();
    m_writer->abort();
}

void BuildLogStream::endRevoked()
{
    m_writer->abortAfter("event: error\n" + errorData(keyRevoked()));
    m_finished = true;
    unsubscribe();
}

void BuildLogStream::unsubscribe()
{
    if (m_token != 0 && m_log)
        m_log->unsubscribe(std::exchange(m_token, 0));
}

} // namespace lizard::api
