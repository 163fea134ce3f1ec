#include "app/connectioncontroller.h"

#include "app/keystore.h"
#include "app/ssh/sshtunnel.h"
#include "client/lizardapi.h"

namespace lizard::app {

using models::ConnectionProfile;

ConnectionController::ConnectionController(KeyStore* keys, QString localDataDir, QObject* parent)
    : QObject(parent), m_keys(keys),
      m_local(new LocalServerConnector(std::move(localDataDir), this))
{
    connect(m_local, &LocalServerConnector::progress, this, &ConnectionController::connecting);
}

void ConnectionController::connectTo(const ConnectionProfile& profile)
{
    const quint64 attempt = ++m_attempt;
    delete m_tunnel; // the window leaves its client at connecting(); the tunnel goes with it
    m_local->disconnect(this, nullptr);
    connect(m_local, &LocalServerConnector::progress, this, &ConnectionController::connecting);
    if (profile.kind == ConnectionProfile::Kind::Local) {
        connect(m_local, &LocalServerConnector::ready, this,
                [this, attempt](const LocalServerInfo& info) {
                    if (attempt != m_attempt)
                        return;
                    auto* api = new client::LizardApi({info.url, info.apiKey}, this);
                    const QString how =
                        info.startedByUs ? QStringLiteral("started") : QStringLiteral("running");
                    useApi(api, QStringLiteral("Local — %1 (%2)").arg(info.url, how), info.notes,
                           info.keyFile);
                });
        connect(m_local, &LocalServerConnector::failed, this,
                [this, attempt](const QString& message) {
                    if (attempt == m_attempt)
                        emit failed(QStringLiteral("Local server: ") + message);
                });
        m_local->start();
        return;
    }
    if (profile.kind == ConnectionProfile::Kind::Ssh) {
        connectSsh(profile, attempt);
        return;
    }
    emit connecting(QStringLiteral("Connecting to %1…").arg(profile.url));
    m_keys->load(profile.id, [this, attempt, profile](std::optional<QString> key,
                                                      const QString& error) {
        if (attempt != m_attempt)
            return;
        if (!key) {
            emit failed(QStringLiteral("%1: %2").arg(profile.name, error));
            return;
        }
        auto* api = new client::LizardApi(
            {profile.url, *key, profile.keyInClearConfirmed, profile.caFile}, this);
        api->whoAmI(this, [this, attempt, api, profile](client::Outcome<client::WhoAmI> outcome) {
            if (attempt != m_attempt) {
                api->deleteLater();
                return;
            }
            if (!outcome) {
                client::ApiError apiError = outcome.error();
                apiError.what = QStringLiteral("Connect to %1").arg(profile.url);
                api->deleteLater();
                emit failed(apiError.toDisplayString());
                return;
            }
            const QString who =
                outcome.value().email.isEmpty() ? outcome.value().name : outcome.value().email;
            const QString label =
                who.isEmpty() ? QStringLiteral("%1 — %2").arg(profile.name, profile.url)
                              : QStringLiteral("%1 — %2 (%3)").arg(profile.name, profile.url, who);
            useApi(api, label, {}, {});
        });
    });
}

void ConnectionController::connectSsh(const ConnectionProfile& profile, quint64 attempt)
{
    auto* tunnel = new ssh::SshTunnel(ssh::SshTarget::fromProfile(profile), this);
    m_tunnel = tunnel;
    const QString host = tunnel->target().label();
    connect(tunnel, &ssh::SshTunnel::progress, this, &ConnectionController::connecting);
    connect(tunnel, &ssh::SshTunnel::hostKeyUnknown, this, &ConnectionController::hostKeyQuestion);
    connect(tunnel, &ssh::SshTunnel::failed, this, [this, attempt](const QString& message) {
        if (attempt == m_attempt)
            emit failed(message);
    });
    connect(tunnel, &ssh::SshTunnel::ready, this,
            [this, attempt](const ssh::RemoteServer& server) { useRemote(server, attempt); });
    connect(tunnel, &ssh::SshTunnel::dropped, this, [this](const QString& message, int retryInS) {
        emit tunnelDropped(
            QStringLiteral("%1 Connecting again in %2 s…").arg(message).arg(retryInS));
    });
    connect(tunnel, &ssh::SshTunnel::restored, this,
            [this, attempt, host](const ssh::RemoteServer& server, bool changed) {
                if (changed)
                    useRemote(server, attempt); // a new client for the server's new address or key
                emit tunnelRestored(QStringLiteral("Connected to %1 again over SSH.").arg(host));
            });
    tunnel->start();
}

void ConnectionController::useRemote(const ssh::RemoteServer& server, quint64 attempt)
{
    if (attempt != m_attempt || m_tunnel == nullptr)
        return;
    auto* api = new client::LizardApi({server.url, server.apiKey}, this);
    api->setProxyRoute(m_tunnel);
    const QString host = m_tunnel->target().label();
    api->whoAmI(this, [this, attempt, api, host, server](client::Outcome<client::WhoAmI> outcome) {
        if (attempt != m_attempt) {
            api->deleteLater();
            return;
        }
        if (!outcome) {
            client::ApiError apiError = outcome.error();
            apiError.what = QStringLiteral("Connect to lizard-local on %1").arg(host);
            api->deleteLater();
            emit failed(apiError.toDisplayString());
            return;
        }
        const QString how = server.how == QLatin1String("running") ? QStringLiteral("running")
                                                                   : QStringLiteral("started");
        useApi(api, QStringLiteral("SSH %1 — lizard-local %2 (%3)").arg(host, server.version, how),
               {}, {});
    });
}

ssh::SshTunnel* ConnectionController::tunnel() const
{
    return m_tunnel;
}

void ConnectionController::answerHostKey(bool trust)
{
    if (m_tunnel)
        m_tunnel->answerHostKey(trust);
}

void ConnectionController::useApi(client::LizardApi* api, const QString& label,
                                  const QStringList& notes, const QString& keyFile)
{
    client::LizardApi* old = m_api;
    m_api = api;
    emit connected(api, label, notes, keyFile);
    if (old != nullptr)
        old->deleteLater(); // the window moved to the new one in connected()
}

} // namespace lizard::app
