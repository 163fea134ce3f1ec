#include "minihttpserver.h"

#include <QPointer>
#include <QTcpSocket>
#include <QTimer>

namespace lizard::test {

MiniHttpServer::MiniHttpServer(QObject* parent) : QObject(parent)
{
    connect(&m_server, &QTcpServer::newConnection, this, &MiniHttpServer::onConnection);
}

MiniHttpServer::~MiniHttpServer()
{
    // The sockets die with m_server, after our other members: they must not call back.
    for (QTcpSocket* socket : m_server.findChildren<QTcpSocket*>())
        socket->disconnect(this);
}

bool MiniHttpServer::listen()
{
    return m_server.listen(QHostAddress::LocalHost, 0);
}

QByteArray MiniHttpServer::url() const
{
    return "http://127.0.0.1:" + QByteArray::number(m_server.serverPort());
}

void MiniHttpServer::route(const QByteArray& path, const MiniResponse& response)
{
    m_routes.insert(path, response);
}

void MiniHttpServer::onConnection()
{
    while (QTcpSocket* socket = m_server.nextPendingConnection()) {
        socket->setProperty("done", false);
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadable(socket); });
        connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
            if (socket->property("started").toBool() && !socket->property("done").toBool()) {
                ++m_hangUps;
                emit clientHungUp();
            }
            m_buffers.remove(socket);
            socket->deleteLater();
        });
    }
}

void MiniHttpServer::onReadable(QTcpSocket* socket)
{
    QByteArray& buf = m_buffers[socket];
    buf += socket->readAll();
    const qsizetype headEnd = buf.indexOf("\r\n\r\n");
    if (headEnd < 0 || socket->property("started").toBool())
        return;
    const QList<QByteArray> lines = buf.left(headEnd).split('\n');
    SeenRequest req;
    const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
    req.method = first.value(0);
    req.target = first.value(1);
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype colon = lines[i].indexOf(':');
        if (colon > 0)
            req.headers.insert(lines[i].left(colon).trimmed().toLower(),
                               lines[i].mid(colon + 1).trimmed());
    }
    const qsizetype length = req.headers.value("content-length", "0").toLongLong();
    if (buf.size() < headEnd + 4 + length)
        return; // wait for the whole body
    req.body = buf.mid(headEnd + 4, length);
    socket->setProperty("started", true);
    m_requests.append(req);
    emit requestSeen();
    respond(socket, req);
}

void MiniHttpServer::respond(QTcpSocket* socket, const SeenRequest& request)
{
    const QByteArray path = request.target.split('?').value(0);
    MiniResponse r =
        m_routes.value(path, MiniResponse{404,
                                          {"Content-Type: application/json"},
                                          R"({"error":"NOT_FOUND","message":"no route"})"});
    QPointer<QTcpSocket> guard(socket);
    QTimer::singleShot(r.delayMs, this, [this, guard, r] {
        if (guard == nullptr)
            return;
        QByteArray head =
            "HTTP/1.1 " + QByteArray::number(r.status) + " Canned\r\nConnection: close\r\n";
        for (const QByteArray& h : r.headers)
            head += h + "\r\n";
        if (r.chunks.isEmpty()) {
            head += "Content-Length: " + QByteArray::number(r.body.size()) + "\r\n\r\n";
            guard->write(head + r.body);
            guard->setProperty("done", true);
            guard->disconnectFromHost();
            return;
        }
        guard->write(head + "Transfer-Encoding: chunked\r\n\r\n");
        sendChunks(guard, r, 0);
    });
}

void MiniHttpServer::sendChunks(QTcpSocket* socket, MiniResponse response, int next)
{
    if (next == response.chunks.size()) {
        if (response.neverEnd)
            return;
        socket->write("0\r\n\r\n");
        socket->setProperty("done", true);
        socket->disconnectFromHost();
        return;
    }
    const QByteArray& c = response.chunks[next];
    socket->write(QByteArray::number(c.size(), 16) + "\r\n" + c + "\r\n");
    socket->flush();
    QPointer<QTcpSocket> guard(socket);
    QTimer::singleShot(response.chunkIntervalMs, this, [this, guard, response, next] {
        if (guard != nullptr && guard->state() == QAbstractSocket::ConnectedState)
            sendChunks(guard, response, next + 1);
    });
}

} // namespace lizard::test
