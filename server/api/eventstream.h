#pragma once
// What the server's Server-Sent Event streams (exec, system log, activity) share: the exchange
// and its writer, the end when the client hangs up or a write fails, the end on the exchange's
// executor when the key is revoked, and a cap on text queued for a client that does not read.

#include "api/streamwriter.h"
#include "common/result.h"

#include <memory>
#include <string>

namespace lizard::api {

class EventStream : public std::enable_shared_from_this<EventStream>
{
public:
    virtual ~EventStream() = default;

    // `{"error","code","message"}` as an event's data, how a stream says why it was cut.
    static std::string errorData(const Error& error);

protected:
    explicit EventStream(std::shared_ptr<http::Exchange> exchange);

    // The client went or a write to it failed: no more writes. On the exchange's executor.
    virtual void cancel() = 0;
    // The key was revoked while the stream had not finished. On the exchange's executor.
    virtual void endRevoked() {}

    // cancel() once the client hangs up or a write fails (from start()).
    void cancelOnHangUp();
    // endRevoked() on the exchange's executor unless the stream has finished by then (any
    // thread: a key is revoked from another request).
    void revokeOnExecutor();
    // Queues `text` for the client. False, with nothing written, once more than `cap` bytes
    // would wait unread: the caller cuts the stream rather than fill lizard-local's memory.
    bool writeWithin(std::string text, size_t cap);

    template <class T> std::shared_ptr<T> selfAs()
    {
        return std::static_pointer_cast<T>(shared_from_this());
    }

    std::shared_ptr<http::Exchange> m_ex;
    std::shared_ptr<StreamWriter> m_writer;
    bool m_finished = false;

private:
    size_t m_unsent = 0; // bytes queued and not yet written
};

} // namespace lizard::api
