#pragma once
// Turns a connection profile into a working LizardApi: the local server (found or started) or
// a cloud account (key from the KeyStore, verified with GET /api/auth/me).

#include "app/localserverconnector.h"
#include "client/lizardapi.h"
#include "models/connectionprofile.h"

#include <QObject>
#include <QPointer>

namespace lizard::app {

class KeyStore;

class ConnectionController : public QObject
{
    Q_OBJECT
public:
    ConnectionController(KeyStore* keys, QString localDataDir, QObject* parent = nullptr);

    void connectTo(const models::ConnectionProfile& profile);
    client::LizardApi* api() const { return m_api; }
    LocalServerConnector* localConnector() const { return m_local; }

signals:
    void connecting(const QString& text);
    // `api` stays valid until the next connected() or the controller's end. `keyFile`: where the
    // local server keeps its key (empty for a cloud connection).
    void connected(lizard::client::LizardApi* api, const QString& label, const QStringList& notes,
                   const QString& keyFile);
    void failed(const QString& message);

private:
    void useApi(client::LizardApi* api, const QString& label, const QStringList& notes,
                const QString& keyFile);

    KeyStore* m_keys;
    LocalServerConnector* m_local;
    QPointer<client::LizardApi> m_api;
    quint64 m_attempt = 0;
};

} // namespace lizard::app
