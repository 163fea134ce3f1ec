#include "api/systemlogstream.h"

#include "api/sseencoder.h"

namespace lizard::api {

namespace {

// A client that does not read is cut past this much queued text, rather than letting a noisy
// sandbox fill lizard-local's memory.
constexpr size_t kMaxUnsentBytes = 4 << 20;

} // namespace

LogStream::LogStream(std::shared_ptr<http::Exchange> exchange, logs::SystemLog& log,
                     std::string sandboxId, size_t tail, bool follow)
    : EventStream(std::move(exchange)), m_log(log), m_id(std::move(sandboxId)), m_tail(tail),
      m_follow(follow)
{
}

std::string LogStream::logEvent(const logs::LogLine& line)
{
    return "event: log\nid: " + std::to_string(line.seq) + "\n" + sseEvent(logs::toJson(line));
}

bool LogStream::start()
{
    auto self = selfAs<LogStream>();
    auto executor = m_ex->executor();
    // The log holds the stream (through its listener) while it follows; unsubscribing or the
    // sandbox's end drop it.
    auto sub = m_log.subscribe(m_id, m_tail, [self, executor](const logs::LogLine* line) {
        std::optional<logs::LogLine> copy;
        if (line)
            copy = *line;
        http::net::post(executor, [self, copy = std::move(copy)] { self->onLine(copy); });
    });
    if (sub.token == 0)
        return false;
    m_token = sub.token;
    cancelOnHangUp();
    m_writer->begin(200, "text/event-stream", std::nullopt);
    std::string text;
    for (const auto& line : sub.tail)
        text += logEvent(line);
    if (!m_follow) {
        finish(text + "event: end\ndata: {\"reason\":\"tail\"}\n\n");
        return true;
    }
    // A comment first, so that the client sees the stream open even with an empty log.
    send(text.empty() ? std::string(": following\n\n") : std::move(text));
    return true;
}

void LogStream::send(std::string text)
{
    if (!writeWithin(std::move(text), kMaxUnsentBytes))
        cancel();
}

void LogStream::onLine(const std::optional<logs::LogLine>& line)
{
    if (m_finished)
        return;
    if (line)
        return send(logEvent(*line));
    m_token = 0; // the log dropped its listeners itself
    finish("event: end\ndata: {\"reason\":\"sandbox ended\"}\n\n");
}

void LogStream::finish(std::string text)
{
    if (m_finished)
        return;
    m_finished = true;
    unsubscribe();
    m_writer->write(std::move(text));
    m_writer->end();
}

void LogStream::cancel()
{
    if (m_finished)
        return;
    m_finished = true;
    unsubscribe();
    m_writer->abort();
}

void LogStream::endRevoked()
{
    // Say why, then cut the stream: it did not end normally.
    m_writer->abortAfter("event: error\n" + errorData(keyRevoked()));
    m_finished = true;
    unsubscribe();
}

void LogStream::unsubscribe()
{
    if (m_token != 0)
        m_log.unsubscribe(m_id, std::exchange(m_token, 0));
}

} // namespace lizard::api
