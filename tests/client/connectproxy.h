#pragma once
// Test helper: a minimal HTTPS proxy on loopback, like a company's, that understands CONNECT
// host:port, records each target, opens the tunnel and pipes bytes both ways. Host names it
// was told about resolve to the given address (the proxy resolves names, not the client).
// listenTls makes it an https:// proxy: the client speaks TLS to the proxy itself (and,
// inside the tunnel, TLS to the server).

#include <QHash>
#include <QStringList>
#include <QTcpServer>
#include <memory>

namespace lizard::test {

class ConnectProxy : public QObject
{
    Q_OBJECT
public:
    explicit ConnectProxy(QObject* parent = nullptr);
    bool listen();
    // PEM certificate (valid for 127.0.0.1) and key of the proxy's TLS side.
    bool listenTls(const QString& certFile, const QString& keyFile);
    int port() const { return m_server ? m_server->serverPort() : 0; }
    QString url() const
    {
        return QStringLiteral("%1://127.0.0.1:%2").arg(m_tls ? "https" : "http").arg(port());
    }
    void addHost(const QString& name, const QString& address) { m_hosts.insert(name, address); }
    // "host:port" of every CONNECT so far, in order.
    QStringList connects() const { return m_connects; }
    void clear() { m_connects.clear(); }

private:
    void onConnection();

    bool listenOn(std::unique_ptr<QTcpServer> server);

    std::unique_ptr<QTcpServer> m_server;
    bool m_tls = false;
    QHash<QString, QString> m_hosts;
    QStringList m_connects;
};

} // namespace lizard::test
