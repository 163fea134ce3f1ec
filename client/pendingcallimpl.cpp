#include "client/pendingcallimpl.h"

#include "client/offthread.h"

#include <QMetaObject>
#include <curl/curl.h>

namespace lizard::client {

PendingCallImpl::PendingCallImpl(CurlMulti* multi, HttpRequest request, QObject* ctx,
                                 Handler handler)
    : PendingCall(ctx), m_transfer(std::make_unique<CurlTransfer>(std::move(request))), m_ctx(ctx),
      m_hasCtx(ctx != nullptr),
      m_handler([handler = std::move(handler)](const HttpResponse& r, std::any) { handler(r); })
{
    start(multi);
}

PendingCallImpl::PendingCallImpl(CurlMulti* multi, HttpRequest request, QObject* ctx,
                                 Prepare prepare, PreparedHandler handler)
    : PendingCall(ctx), m_transfer(std::make_unique<CurlTransfer>(std::move(request))), m_ctx(ctx),
      m_hasCtx(ctx != nullptr), m_prepare(std::move(prepare)), m_handler(std::move(handler))
{
    start(multi);
}

void PendingCallImpl::start(CurlMulti* multi)
{
    m_transfer->setFinishHandler([this](const HttpResponse& response) {
        if (response.cancelled) {
            deliverLater(
                response); // the CurlMulti is being destroyed: not a moment to run callers' code
        } else if (m_prepare) {
            // A cancel() meanwhile delivers first; this call's deletion drops the prepared answer.
            runOffThread<std::any>(
                this, [prepare = m_prepare, response] { return prepare(response); },
                [this, response](std::any prepared) { deliver(response, std::move(prepared)); });
        } else {
            deliver(response);
        }
    });
    if (!m_transfer->start(multi)) {
        HttpResponse failed;
        failed.curlCode = CURLE_FAILED_INIT;
        failed.curlError = QStringLiteral("cannot start the transfer");
        deliverLater(failed);
    }
}

PendingCallImpl::PendingCallImpl(QObject* ctx, std::function<void()> report)
    : PendingCall(ctx), m_ctx(ctx), m_hasCtx(ctx != nullptr),
      m_handler([report = std::move(report)](const HttpResponse&, std::any) { report(); })
{
    deliverLater(HttpResponse());
}

PendingCallImpl::~PendingCallImpl() = default; // the transfer's destructor stops it

void PendingCallImpl::cancel()
{
    if (m_done)
        return;
    if (m_transfer)
        m_transfer->cancel();
    HttpResponse cancelled;
    cancelled.cancelled = true;
    deliverLater(cancelled);
}

void PendingCallImpl::deliverLater(const HttpResponse& response)
{
    QMetaObject::invokeMethod(
        this, [this, response] { deliver(response); }, Qt::QueuedConnection);
}

void PendingCallImpl::deliver(const HttpResponse& response, std::any prepared)
{
    if (m_done)
        return;
    m_done = true;
    const QPointer<PendingCallImpl> self(this);
    if (!m_hasCtx || m_ctx != nullptr) {
        const PreparedHandler handler = std::move(m_handler);
        handler(response, std::move(prepared)); // may destroy ctx, and with it this call
    }
    if (self == nullptr)
        return;
    emit finished();
    if (self != nullptr)
        deleteLater();
}

} // namespace lizard::client
