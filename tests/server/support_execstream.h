#pragma once
// An exec streamed over a raw connection, so that a test can act while the command runs.

#include "support_http.h"

#include <QElapsedTimer>
#include <QTcpSocket>
#include <memory>

namespace lizard::test {

inline std::unique_ptr<QTcpSocket> openExecStream(const LocalServer& server, const QString& id,
                                                  const QJsonObject& body)
{
    auto s = std::make_unique<QTcpSocket>();
    s->connectToHost("127.0.0.1", quint16(server.port()));
    if (!s->waitForConnected(5000))
        return nullptr;
    const QByteArray json = toJson(body);
    s->write("POST /api/sandboxes/" + id.toUtf8() +
             "/exec HTTP/1.1\r\nHost: x\r\nX-API-Key: " + server.apiKey().toUtf8() +
             "\r\nAccept: text/event-stream\r\nContent-Type: application/json\r\n"
             "Content-Length: " +
             QByteArray::number(json.size()) + "\r\n\r\n" + json);
    return s;
}

// The pid of the stream's `{"pid": N}` event (an exec with pidEvent), 0 after 10 s without.
inline int readPidEvent(QTcpSocket& s, QByteArray& got)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 10000) {
        s.waitForReadyRead(200);
        got += s.readAll();
        const int at = got.indexOf("data: {\"pid\":");
        if (at >= 0 && got.indexOf('}', at) > at)
            return got.mid(at + 13, got.indexOf('}', at) - at - 13).toInt();
    }
    return 0;
}

} // namespace lizard::test
