#include "api/streamwriter.h"

#include "http/limits.h"

namespace lizard::api {

void StreamWriter::begin(int status, std::string contentType, std::optional<uint64_t> contentLength)
{
    m_begun = true;
    const bool events = contentType == "text/event-stream";
    Op op{Op::Begin, std::move(contentType), {}, status, contentLength};
    m_queue.push_back(std::move(op));
    pump();
    if (events) {
        m_keepalive = std::make_shared<http::net::steady_timer>(m_ex->executor());
        armKeepalive();
    }
}

void StreamWriter::armKeepalive()
{
    m_keepalive->expires_after(http::connectionLimits().keepalive);
    std::weak_ptr<StreamWriter> weak = shared_from_this();
    m_keepalive->async_wait([weak](const boost::system::error_code& ec) {
        auto self = weak.lock();
        if (ec || !self || self->m_failed || self->m_ended)
            return;
        // Only into silence: a stream that is writing (or waits for a slow reader) is alive.
        if (!self->m_wroteSinceTick && !self->m_writing && self->m_queue.empty()) {
            self->m_queue.push_back(Op{Op::Data, ": keepalive\n\n", {}});
            self->pump();
        }
        self->m_wroteSinceTick = false;
        self->armKeepalive();
    });
}

void StreamWriter::write(std::string data, std::function<void()> afterWritten)
{
    if (m_failed || m_ended)
        return;
    m_wroteSinceTick = true;
    m_queue.push_back(Op{Op::Data, std::move(data), std::move(afterWritten)});
    pump();
}

void StreamWriter::end()
{
    if (m_failed || m_ended)
        return;
    m_ended = true;
    if (m_keepalive)
        m_keepalive->cancel();
    m_queue.push_back(Op{Op::End, {}, {}});
    pump();
}

void StreamWriter::abortAfter(std::string lastWords)
{
    write(std::move(lastWords));
    auto self = shared_from_this();
    write(std::string(), [self] { self->abort(); });
}

void StreamWriter::abort()
{
    m_failed = true;
    m_queue.clear();
    if (m_keepalive)
        m_keepalive->cancel();
    m_ex->abortStream();
}

void StreamWriter::fail()
{
    if (m_failed)
        return;
    m_failed = true;
    m_queue.clear();
    if (m_keepalive)
        m_keepalive->cancel();
    if (auto cb = std::move(m_onFailure))
        cb();
}

void StreamWriter::pump()
{
    if (m_writing || m_failed || m_queue.empty())
        return;
    Op op = std::move(m_queue.front());
    m_queue.pop_front();
    if (op.kind == Op::End) {
        m_ex->endStream();
        return;
    }
    m_writing = true;
    auto self = shared_from_this();
    auto done = [self, after = std::move(op.after)](bool ok) {
        self->m_writing = false;
        if (!ok)
            return self->fail();
        if (after)
            after();
        self->pump();
    };
    if (op.kind == Op::Begin)
        m_ex->beginStream(op.status, op.data, op.length, std::move(done));
    else
        m_ex->write(std::move(op.data), std::move(done));
}

} // namespace lizard::api
