#include "client/followedstream.h"

#include "client/errormapping.h"
#include "client/streamtransfer.h"

#include <QMetaObject>
#include <curl/curl.h>

namespace lizard::client {

FollowedStream::FollowedStream(QObject* owner, CurlMulti* multi, HttpRequest request, QString what,
                               Hooks hooks, bool watchKeepalive)
    : m_owner(owner), m_what(std::move(what)), m_emitFailed(std::move(hooks.emitFailed))
{
    m_transfer =
        startStreamTransfer(multi, std::move(request), m_what, std::move(hooks.data),
                            std::move(hooks.finished), [this](const ApiError& e) { failLater(e); });
    if (watchKeepalive)
        m_stallWatch =
            std::make_unique<KeepaliveWatch>(m_transfer.get(), m_what, [this](const ApiError& e) {
                if (!m_ended)
                    finishWith(e);
            });
}

FollowedStream::~FollowedStream() = default;

void FollowedStream::dataArrived()
{
    if (m_stallWatch)
        m_stallWatch->dataArrived();
}

void FollowedStream::markEnded()
{
    m_ended = true;
    if (m_stallWatch) // null while the constructor starts the transfer
        m_stallWatch->stop();
}

void FollowedStream::cancel()
{
    m_transfer->cancel();
    failLater(cancelledError(m_what));
}

void FollowedStream::failLater(const ApiError& error)
{
    if (m_ended)
        return;
    markEnded();
    // Queued on the owner: never delivered once it is gone.
    QMetaObject::invokeMethod(
        m_owner, [emitFailed = m_emitFailed, error] { emitFailed(error); }, Qt::QueuedConnection);
}

bool FollowedStream::finishWith(const ApiError& error)
{
    markEnded();
    m_transfer->cancel();
    const QPointer<QObject> alive(m_owner);
    m_emitFailed(error); // may destroy the owner, and this with it
    return alive != nullptr;
}

void FollowedStream::markConnectionLost(ApiError& error, const HttpResponse& response)
{
    // Only a refused connection, or a failed TLS setup (which comes with its own code), means
    // the request never reached the server.
    if (error.kind == ApiError::Kind::Network && response.curlCode != CURLE_COULDNT_CONNECT &&
        error.code.isEmpty())
        error.code = QStringLiteral("CONNECTION_LOST");
}

} // namespace lizard::client
