#pragma once
// The PendingCall behind every LizardApi call: one CurlTransfer, a context object, and the
// handler that turns the HTTP answer into the caller's Outcome.

#include "client/curltransfer.h"
#include "client/lizardapi.h"

#include <QPointer>
#include <any>
#include <functional>
#include <memory>

namespace lizard::client {

class PendingCallImpl : public PendingCall
{
    Q_OBJECT
public:
    // handler runs once with the answer (or the failure); never after ctx was destroyed.
    // With a ctx the call is a child of it, so destroying ctx cancels the call.
    using Handler = std::function<void(const HttpResponse&)>;
    PendingCallImpl(CurlMulti* multi, HttpRequest request, QObject* ctx, Handler handler);
    // The same, with CPU work on the answer (parsing a large body) done on a pool thread: prepare
    // runs there with a complete answer, and handler then runs here with what prepare returned.
    // A cancelled or failed-to-start call reaches handler with an empty std::any, unprepared.
    using Prepare = std::function<std::any(const HttpResponse&)>;
    using PreparedHandler = std::function<void(const HttpResponse&, std::any prepared)>;
    PendingCallImpl(CurlMulti* multi, HttpRequest request, QObject* ctx, Prepare prepare,
                    PreparedHandler handler);
    // A call that fails before reaching the network: report runs from the event loop (unless
    // ctx was destroyed first).
    PendingCallImpl(QObject* ctx, std::function<void()> report);
    ~PendingCallImpl() override;

    // Stops the transfer; the handler then runs from the event loop with a cancelled answer.
    void cancel() override;

private:
    void start(CurlMulti* multi);
    void deliver(const HttpResponse& response, std::any prepared = {});
    void deliverLater(const HttpResponse& response);

    std::unique_ptr<CurlTransfer> m_transfer;
    QPointer<QObject> m_ctx;
    bool m_hasCtx = false;
    Prepare m_prepare;
    PreparedHandler m_handler;
    bool m_done = false;
};

} // namespace lizard::client
