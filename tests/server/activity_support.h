#pragma once
// Following a sandbox's activity log over a raw socket, as an app would, and exec bodies that
// carry a code runner invocation (tst_api_activity, tst_api_activityserve).

#include "support_http.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTcpSocket>

namespace lizard::test {

// A client following the activity stream over a raw socket, as an app would.
class ActivityFollower
{
public:
    bool open(const LocalServer& server, const QString& id, quint64 since = 0)
    {
        m_socket.connectToHost("127.0.0.1", quint16(server.port()));
        if (!m_socket.waitForConnected(5000))
            return false;
        m_socket.write("GET /api/sandboxes/" + id.toUtf8() +
                       "/activity?since=" + QByteArray::number(since) +
                       " HTTP/1.1\r\nHost: x\r\nX-API-Key: " + server.apiKey().toUtf8() +
                       "\r\nAccept: text/event-stream\r\n\r\n");
        return m_socket.waitForBytesWritten(5000);
    }

    // Reads until `count` entries arrived or `ms` passed.
    QList<QJsonObject> waitFor(int count, int ms = 15000)
    {
        QElapsedTimer t;
        t.start();
        while (m_entries.size() < count && t.elapsed() < ms) {
            m_socket.waitForReadyRead(50);
            m_raw += m_socket.readAll();
            parse();
        }
        return m_entries;
    }
    QByteArray raw() const { return m_raw; }
    bool closedByServer()
    {
        m_socket.waitForReadyRead(2000);
        m_raw += m_socket.readAll();
        return m_socket.state() != QAbstractSocket::ConnectedState || m_raw.endsWith("0\r\n\r\n");
    }

private:
    void parse()
    {
        // Chunked transfer framing aside, every event is "id: N\ndata: {...}\n\n".
        int at;
        while ((at = m_raw.indexOf("data: {", m_parsed)) >= 0) {
            const int end = m_raw.indexOf("\n\n", at);
            if (end < 0)
                return;
            m_entries.push_back(QJsonDocument::fromJson(m_raw.mid(at + 6, end - at - 6)).object());
            m_parsed = end + 2;
        }
    }

    QTcpSocket m_socket;
    QByteArray m_raw;
    int m_parsed = 0;
    QList<QJsonObject> m_entries;
};

inline QStringList kinds(const QList<QJsonObject>& entries)
{
    QStringList out;
    for (const auto& e : entries)
        out << e.value("kind").toString();
    return out;
}

inline QByteArray runnerExec(const QJsonObject& args)
{
    QFile f(QStringLiteral(LIZARD_RUNNER_SCRIPT));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray encoded = QJsonDocument(args).toJson(QJsonDocument::Compact).toBase64();
    return toJson({{"cmd", QJsonArray{"python3", "-c", QString::fromUtf8(f.readAll()),
                                      QString::fromLatin1(encoded)}}});
}

} // namespace lizard::test
