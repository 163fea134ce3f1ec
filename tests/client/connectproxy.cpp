#include "connectproxy.h"

#include <QPointer>
#include <QTcpSocket>

namespace lizard::test {

ConnectProxy::ConnectProxy(QObject* parent) : QObject(parent)
{
    connect(&m_server, &QTcpServer::newConnection, this, &ConnectProxy::onConnection);
}

void ConnectProxy::onConnection()
{
    while (QTcpSocket* client = m_server.nextPendingConnection()) {
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
