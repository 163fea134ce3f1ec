#pragma once
// Says at once when the server goes away and when it is back. Any call or stream of the API
// that finds no server or loses its connection reports it (LizardApi::connectionLost), so the
// loss shows the moment it is noticed, not at the next poll; while lost, a probe asks the
// server every second and the first answer says the connection is back (the same endpoint and
// key: a lizard-local started again on its data directory and port answers there).

#include "client/outcome.h"
#include "client/pendingcall.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models {

class ConnectionWatch : public QObject
{
    Q_OBJECT
public:
    // `api` must outlive the watch.
    explicit ConnectionWatch(client::LizardApi* api, QObject* parent = nullptr);

    bool isLost() const { return m_lost; }
    // "lizard-local" for a server on this machine, else its host name.
    static QString serverName(const client::Endpoint& endpoint);

signals:
    void lost(const QString& message);
    void restored(const QString& message);

private:
    void onLost(const QString& reason);
    void probe();

    client::LizardApi* m_api;
    QTimer m_probe;
    QPointer<client::PendingCall> m_inFlight;
    bool m_lost = false;
};

} // namespace lizard::models
