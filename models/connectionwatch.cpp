#include "models/connectionwatch.h"

#include "client/lizardapi.h"

#include <QUrl>

namespace lizard::models {

ConnectionWatch::ConnectionWatch(client::LizardApi* api, QObject* parent)
    : QObject(parent), m_api(api)
{
    m_probe.setInterval(1000);
    connect(&m_probe, &QTimer::timeout, this, &ConnectionWatch::probe);
    connect(api, &client::LizardApi::connectionLost, this, &ConnectionWatch::onLost);
}

QString ConnectionWatch::serverName(const client::Endpoint& endpoint)
{
    const QString host = QUrl(endpoint.baseUrl).host();
    const bool local = host == u"127.0.0.1" || host == u"localhost" || host == u"::1";
    return local ? QStringLiteral("lizard-local") : host;
}

void ConnectionWatch::onLost(const QString& reason)
{
    if (m_lost)
        return; // every failing call says it again; once is enough
    m_lost = true;
    emit lost(QStringLiteral("Lost the connection to %1 (%2). Commands and cells that were running "
                             "may or may not have finished. Reconnecting…")
                  .arg(serverName(m_api->endpoint()), reason));
    m_probe.start();
}

void ConnectionWatch::probe()
{
    if (m_inFlight)
        return; // a probe still waits for its answer
    m_inFlight = m_api->listProjects(this, [this](client::Outcome<QList<client::Project>> outcome) {
        m_inFlight = nullptr;
        // Any HTTP answer means the server is there again; only transport errors mean it is not.
        if (!m_lost || (!outcome && outcome.error().kind == client::ApiError::Kind::Network))
            return;
        m_lost = false;
        m_probe.stop();
        emit restored(QStringLiteral("Connected to %1 again.").arg(serverName(m_api->endpoint())));
    });
}

} // namespace lizard::models
