#include "client/pendingcallimpl.h"

#include <QMetaObject>

#include <curl/curl.h>

namespace lizard::client {

PendingCallImpl::PendingCallImpl(CurlMulti* multi, HttpRequest request, QObject* ctx, Handler handler)
    : PendingCall(ctx), m_transfer(std::make_unique<CurlTransfer>(std::move(request))), m_ctx(ctx),
      m_hasCtx(ctx != nullptr), m_handler(std::move(handler))
{
    m_transfer->setFinishHandler([this](const HttpResponse& response) {
        if (response.cancelled)
            deliverLater(response); // the CurlMulti is being destroyed: not a moment to run callers' code
        else
            deliver(response);
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
      m_handler([report = std::move(report)](const HttpResponse&) { report(); })
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
    QMetaObject::invokeMethod(this, [this, response] { deliver(response); }, Qt::QueuedConnection);
}

void PendingCallImpl::deliver(const HttpResponse& response)
{
    if (m_done)
        return;
    m_done = true;
    const QPointer<PendingCallImpl> self(this);
    if (!m_hasCtx || m_ctx != nullptr) {
        const Handler handler = std::move(m_handler);
        handler(response); // may destroy ctx, and with it this call
    }
    if (self == nullptr)
        return;
    emit finished();
    if (self != nullptr)
        deleteLater();
}

} // namespace lizard::client
