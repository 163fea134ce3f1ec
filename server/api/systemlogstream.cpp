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
    : m_ex(std::move(exchange)), m_writer(std::make_shared<StreamWriter>(m_ex)), m_log(log),
      m_id(std::move(sandboxId)), m_tail(tail), m_follow(follow)
{
}

std::string LogStream::logEvent(const logs::LogLine& line)
{
    return "event: log\nid: " + std::to_string(line.seq) + "\n" + sseEvent(logs::toJson(line));
}

bool LogStream::start()
{
    auto self = shared_from_this();
    std::weak_ptr<LogStream> weak = self;
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
    m_writer->onFailure([weak] {
        if (auto s = weak.lock())
            s->cancel();
    });
    m_ex->onClientGone([weak] {
        if (auto s = weak.lock())
            s->cancel();
    });
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
    m_unsent += text.size();
    if (m_unsent > kMaxUnsentBytes)
        return cancel();
    std::weak_ptr<LogStream> weak = shared_from_this();
    const size_t size = text.size();
    m_writer->write(std::move(text), [weak, size] {
        if (auto s = weak.lock())
            s->m_unsent -= size;
    });
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
    if (m_token != 0)
        m_log.unsubscribe(m_id, std::exchange(m_token, 0));
    m_writer->write(std::move(text));
    m_writer->end();
}

void LogStream::cancel()
{
    if (m_finished)
        return;
    m_finished = true;
    if (m_token != 0)
        m_log.unsubscribe(m_id, std::exchange(m_token, 0));
    m_writer->abort();
}

void LogStream::revoke()
{
    std::weak_ptr<LogStream> weak = shared_from_this();
    http::net::post(m_ex->executor(), [weak] {
        auto s = weak.lock();
        if (!s || s->m_finished)
            return;
        // Say why, then cut the stream: it did not end normally.
        const Error e = keyRevoked();
        s->m_writer->abortAfter(
            "event: error\n" +
            sseEvent({{"error", e.code}, {"code", e.code}, {"message", e.message}}));
        s->m_finished = true;
        if (s->m_token != 0)
            s->m_log.unsubscribe(s->m_id, std::exchange(s->m_token, 0));
    });
}

} // namespace lizard::api
