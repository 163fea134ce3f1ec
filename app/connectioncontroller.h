#pragma once
// Turns a connection profile into a working LizardApi: the local server (found or started), a
// cloud account (key from the KeyStore, verified with GET /api/auth/me), or the lizard-local of
// an SSH host through a tunnel (app/ssh/sshtunnel.h), which it keeps up after network drops.

#include "app/localserverconnector.h"
#include "client/lizardapi.h"
#include "models/connectionprofile.h"

#include <QObject>
#include <QPointer>

namespace lizard::app {

class KeyStore;
namespace ssh {
class SshTunnel;
struct RemoteServer;
} // namespace ssh

class ConnectionController : public QObject
{
    Q_OBJECT
public:
    ConnectionController(KeyStore* keys, QString localDataDir, QObject* parent = nullptr);

    void connectTo(const models::ConnectionProfile& profile);
    client::LizardApi* api() const { return m_api; }
    LocalServerConnector* localConnector() const { return m_local; }
    ssh::SshTunnel* tunnel() const; // an SSH host's, else null
    // After hostKeyQuestion(): the user's answer (yes: the key goes into their known_hosts).
    void answerHostKey(bool trust);

signals:
    void connecting(const QString& text);
    // `api` stays valid until the next connected() or the controller's end. `keyFile`: where the
    // local server keeps its key (empty for a cloud connection).
    void connected(lizard::client::LizardApi* api, const QString& label, const QStringList& notes,
                   const QString& keyFile);
    void failed(const QString& message);
    // An SSH host presents a key not yet known: ask the user, then answerHostKey().
    void hostKeyQuestion(const QString& host, const QStringList& fingerprints);
    // The SSH connection ended and is being made again; it is back.
    void tunnelDropped(const QString& message);
    void tunnelRestored(const QString& message);

private:
    void connectSsh(const models::ConnectionProfile& profile, quint64 attempt);
    void useRemote(const ssh::RemoteServer& server, quint64 attempt);
    void useApi(client::LizardApi* api, const QString& label, const QStringList& notes,
                const QString& keyFile);

    KeyStore* m_keys;
    LocalServerConnector* m_local;
    QPointer<client::LizardApi> m_api;
    QPointer<ssh::SshTunnel> m_tunnel;
    quint64 m_attempt = 0;
};

} // namespace lizard::app
