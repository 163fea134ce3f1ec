#include "client/keepalivewatch.h"

#include "client/curltransfer.h"
#include "client/errormapping.h"

#include <curl/curl.h>

namespace lizard::client {

KeepaliveWatch::KeepaliveWatch(const CurlTransfer* transfer, QString what,
                               std::function<void(const ApiError&)> onStalled, QObject* parent)
    : QObject(parent), m_transfer(transfer), m_what(std::move(what)),
      m_onStalled(std::move(onStalled))
{
    m_sinceData.start();
    m_timer.setInterval(250);
    connect(&m_timer, &QTimer::timeout, this, &KeepaliveWatch::check);
    m_timer.start();
}

void KeepaliveWatch::dataArrived()
{
    m_sawData = true;
    m_sinceData.restart();
}

void KeepaliveWatch::check()
{
    if (m_keepaliveMs < 0) {
        const QByteArray promised = m_transfer->response().header("x-lizard-keepalive-ms");
        if (promised.isEmpty()) {
            if (m_sawData)
                m_keepaliveMs = 0;
            return;
        }
        bool ok = false;
        m_keepaliveMs = qMax(0LL, promised.toLongLong(&ok));
        if (!ok)
            m_keepaliveMs = 0;
    }
    if (m_keepaliveMs == 0) {
        m_timer.stop(); // no promise: silence means nothing
        return;
    }
    const qint64 limit = kStalledAfterKeepalives * m_keepaliveMs;
    if (m_sinceData.elapsed() < limit)
        return;
    m_timer.stop();
    ApiError error = mapTransportError(
        CURLE_OPERATION_TIMEDOUT,
        QStringLiteral(
            "the server sent nothing for %1 s although it promised a sign of life every %2 s: the "
            "connection stalled")
            .arg(limit / 1000.0, 0, 'g', 3)
            .arg(m_keepaliveMs / 1000.0, 0, 'g', 3),
        m_what);
    error.kind = ApiError::Kind::Network; // like a broken connection: the server may go on
    error.code = QStringLiteral("CONNECTION_LOST");
    m_onStalled(error);
}

} // namespace lizard::client
