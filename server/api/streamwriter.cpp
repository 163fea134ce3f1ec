#include "api/streamwriter.h"

namespace lizard::api {

void StreamWriter::begin(int status, std::string contentType, std::optional<uint64_t> contentLength)
{
    m_begun = true;
    Op op{Op::Begin, std::move(contentType), {}, status, contentLength};
    m_queue.push_back(std::move(op));
    pump();
}

void StreamWriter::write(std::string data, std::function<void()> afterWritten)
{
    if (m_failed || m_ended)
        return;
    m_queue.push_back(Op{Op::Data, std::move(data), std::move(afterWritten)});
    pump();
}

void StreamWriter::end()
{
    if (m_failed || m_ended)
        return;
    m_ended = true;
    m_queue.push_back(Op{Op::End, {}, {}});
    pump();
}

void StreamWriter::abort()
{
    m_failed = true;
    m_queue.clear();
    m_ex->abortStream();
}

void StreamWriter::fail()
{
    if (m_failed)
        return;
    m_failed = true;
    m_queue.clear();
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
