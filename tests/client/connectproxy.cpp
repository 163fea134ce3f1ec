#include "connectproxy.h"

#include <QFile>
#include <QPointer>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QSslServer>
#include <QTcpSocket>

namespace lizard::test {

ConnectProxy::ConnectProxy(QObject* parent) : QObject(parent) {}

bool ConnectProxy::listenOn(std::unique_ptr<QTcpServer> server)
{
    m_server = std::move(server);
    // Emitted once a connection is ready: for the TLS server, after its handshake.
    connect(m_server.get(), &QTcpServer::pendingConnectionAvailable, this,
            &ConnectProxy::onConnection);
    return m_server->listen(QHostAddress::LocalHost, 0);
}

bool ConnectProxy::listen()
{
    m_tls = false;
    return listenOn(std::make_unique<QTcpServer>());
}

bool ConnectProxy::listenTls(const QString& certFile, const QString& keyFile)
{
    QFile cert(certFile);
    QFile key(keyFile);
    if (!cert.open(QIODevice::ReadOnly) || !key.open(QIODevice::ReadOnly))
        return false;
    QSslConfiguration config = QSslConfiguration::defaultConfiguration();
    config.setLocalCertificate(QSslCertificate(&cert, QSsl::Pem));
    config.setPrivateKey(QSslKey(&key, QSsl::Ec, QSsl::Pem));
    config.setPeerVerifyMode(QSslSocket::VerifyNone); // the client shows no certificate
    auto server = std::make_unique<QSslServer>();
    server->setSslConfiguration(config);
    m_tls = true;
    return listenOn(std::move(server));
}

void ConnectProxy::onConnection()
{
    while (QTcpSocket* client = m_server->nextPendingConnection()) {
        auto* head = new QByteArray;
        connect(client, &QObject::destroyed, [head] { delete head; });
        connect(client, &QTcpSocket::disconnected, client, &QObject::deleteLater);
        connect(client, &QTcpSocket::readyRead, this, [this, client, head] {
            if (client->property("tunnel").toBool())
                return; // the tunnel's own handler reads from now on
            *head += client->readAll();
            const qsizetype end = head->indexOf("\r\n\r\n");
            if (end < 0)
                return;
            const QList<QByteArray> request = head->left(head->indexOf("\r\n")).split(' ');
            if (request.size() < 3 || request[0] != "CONNECT") {
                client->write("HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n");
                client->disconnectFromHost();
                return;
            }
            const QString target = QString::fromLatin1(request[1]);
            m_connects << target;
            const qsizetype colon = target.lastIndexOf(QLatin1Char(':'));
            const QString host = target.left(colon);
            const quint16 port = target.mid(colon + 1).toUShort();
            QByteArray early = head->mid(end + 4); // bytes the client sent after its request
            client->setProperty("tunnel", true);
            auto* upstream = new QTcpSocket(client);
            connect(upstream, &QTcpSocket::connected, client, [client, upstream, early] {
                client->write("HTTP/1.1 200 Connection established\r\n\r\n");
                if (!early.isEmpty())
                    upstream->write(early);
                connect(client, &QTcpSocket::readyRead, upstream,
                        [client, upstream] { upstream->write(client->readAll()); });
                connect(upstream, &QTcpSocket::readyRead, client,
                        [client, upstream] { client->write(upstream->readAll()); });
                connect(upstream, &QTcpSocket::disconnected, client,
                        &QTcpSocket::disconnectFromHost);
                connect(client, &QTcpSocket::disconnected, upstream,
                        &QTcpSocket::disconnectFromHost);
                if (client->bytesAvailable() > 0)
                    upstream->write(client->readAll());
            });
            connect(upstream, &QTcpSocket::errorOccurred, client,
                    [client](QAbstractSocket::SocketError) {
                        if (client->state() == QAbstractSocket::ConnectedState &&
                            !client->property("answered").toBool()) {
                            client->write("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n");
                            client->setProperty("answered", true);
                        }
                        client->disconnectFromHost();
                    });
            connect(upstream, &QTcpSocket::connected, client,
                    [client] { client->setProperty("answered", true); });
            upstream->connectToHost(m_hosts.value(host, host), port);
        });
    }
}

} // namespace lizard::test
