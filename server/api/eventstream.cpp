#include "api/eventstream.h"

#include "api/sseencoder.h"
#include "http/responses.h"

namespace lizard::api {

EventStream::EventStream(std::shared_ptr<http::Exchange> exchange)
    : m_ex(std::move(exchange)), m_writer(std::make_shared<StreamWriter>(m_ex))
{
}

std::string EventStream::errorData(const Error& error)
{
    return sseEvent(http::errorBody(error));
}

void EventStream::cancelOnHangUp()
{
    std::weak_ptr<EventStream> weak = shared_from_this();
    m_writer->onFailure([weak] {
        if (auto s = weak.lock())
            s->cancel();
    });
    m_ex->onClientGone([weak] {
        if (auto s = weak.lock())
            s->cancel();
    });
}

void EventStream::revokeOnExecutor()
{
    std::weak_ptr<EventStream> weak = shared_from_this();
    http::net::post(m_ex->executor(), [weak] {
        auto s = weak.lock();
        if (!s || s->m_finished)
            return;
        s->endRevoked();
    });
}

bool EventStream::writeWithin(std::string text, size_t cap)
{
    m_unsent += text.size();
    if (m_unsent > cap)
        return false;
    std::weak_ptr<EventStream> weak = shared_from_this();
    const size_t size = text.size();
    m_writer->write(std::move(text), [weak, size] {
        if (auto s = weak.lock())
            s->m_unsent -= size;
    });
    return true;
}

} // namespace lizard::api
