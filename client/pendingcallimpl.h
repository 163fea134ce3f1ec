#pragma once
// The PendingCall behind every LizardApi call: one CurlTransfer, a context object, and the
// handler that turns the HTTP answer into the caller's Outcome.

#include "client/curltransfer.h"
#include "client/lizardapi.h"

#include <QPointer>

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
    // A call that fails before reaching the network: report runs from the event loop (unless
    // ctx was destroyed first).
    PendingCallImpl(QObject* ctx, std::function<void()> report);
    ~PendingCallImpl() override;

    // Stops the transfer; the handler then runs from the event loop with a cancelled answer.
    void cancel() override;

private:
    void deliver(const HttpResponse& response);
    void deliverLater(const HttpResponse& response);

    std::unique_ptr<CurlTransfer> m_transfer;
    QPointer<QObject> m_ctx;
    bool m_hasCtx = false;
    Handler m_handler;
    bool m_done = false;
};

} // namespace lizard::client
