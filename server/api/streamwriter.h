#pragma once
// Serialises a streamed answer on one exchange: header, pieces, end — one write at a time,
// each piece's callback after it reached the socket (that is where backpressure resumes).
// Use from the exchange's executor only. An event stream (text/event-stream) sends an SSE
// comment after each keep-alive interval without a write (http/limits.h).

#include "http/exchange.h"

#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace lizard::api {

class StreamWriter : public std::enable_shared_from_this<StreamWriter>
{
public:
    explicit StreamWriter(std::shared_ptr<http::Exchange> exchange) : m_ex(std::move(exchange)) {}

    void begin(int status, std::string contentType, std::optional<uint64_t> contentLength);
    void write(std::string data, std::function<void()> afterWritten = {});
    void end();
    // Cuts the connection: the client sees an incomplete answer (used after mid-stream errors).
    void abort();
    // Writes `lastWords` (an error event), then cuts the connection once they are out, so the
    // client cannot mistake the stream for one that ended normally.
    void abortAfter(std::string lastWords);
    bool begun() const { return m_begun; }
    bool failed() const { return m_failed; }
    // Runs once if a write fails (the client went away).
    void onFailure(std::function<void()> cb) { m_onFailure = std::move(cb); }

private:
    struct Op
    {
        enum Kind { Begin, Data, End } kind;
        std::string data;
        std::function<void()> after;
        int status = 200;
        std::optional<uint64_t> length;
    };
    void pump();
    void fail();
    void armKeepalive();

    std::shared_ptr<http::Exchange> m_ex;
    std::deque<Op> m_queue;
    bool m_writing = false;
    bool m_begun = false;
    bool m_failed = false;
    bool m_ended = false;
    bool m_wroteSinceTick = false;
    std::shared_ptr<http::net::steady_timer> m_keepalive;
    std::function<void()> m_onFailure;
};

} // namespace lizard::api
