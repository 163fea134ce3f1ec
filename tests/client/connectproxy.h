#pragma once
// Test helper: a minimal HTTPS proxy on loopback, like a company's, that understands CONNECT
// host:port, records each target, opens the tunnel and pipes bytes both ways. Host names it
// was told about resolve to the given address (the proxy resolves names, not the client).

#include <QHash>
#include <QStringList>
#include <QTcpServer>

namespace lizard::test {

class ConnectProxy : public QObject
{
    Q_OBJECT
public:
    explicit ConnectProxy(QObject* parent = nullptr);
    bool listen() { return m_server.listen(QHostAddress::LocalHost, 0); }
    int port() const { return m_server.serverPort(); }
    QString url() const { return QStringLiteral("http://127.0.0.1:%1").arg(port()); }
    void addHost(const QString& name, const QString& address) { m_hosts.insert(name, address); }
    // "host:port" of every CONNECT so far, in order.
    QStringList connects() const { return m_connects; }
    void clear() { m_connects.clear(); }

private:
    void onConnection();

    QTcpServer m_server;
    QHash<QString, QString> m_hosts;
    QStringList m_connects;
};

} // namespace lizard::test
