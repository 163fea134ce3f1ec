// GET /api/sandboxes/{id}/logs on a real lizard-local: lifecycle lines in order, `tail`,
// a process killed by a signal, an OOM kill (error), a live line within 1 s, the end of the
// stream with the sandbox, read-only keys, revocation, a restart, and the errors.
#include "support_http.h"

#include <QElapsedTimer>
#include <QTcpSocket>

using lizard::test::createSandbox;
using lizard::test::describe;
using lizard::test::isError;
using lizard::test::jsonObject;
using lizard::test::LocalServer;
using lizard::test::toJson;

namespace {

struct Event
{
    QString event;
    QString id;
    QJsonObject data;
};

QList<Event> parseEvents(const QByteArray& body)
{
    QList<Event> out;
    const QList<QByteArray> blocks = QByteArray(body).split('\n');
    Event cur;
    bool any = false;
    for (const QByteArray& line : blocks) {
        if (line.isEmpty()) {
            if (any)
                out.push_back(cur);
            cur = Event();
            any = false;
        } else if (line.startsWith("event: ")) {
            cur.event = QString::fromUtf8(line.mid(7));
            any = true;
        } else if (line.startsWith("id: ")) {
            cur.id = QString::fromUtf8(line.mid(4));
        } else if (line.startsWith("data: ")) {
            cur.data = QJsonDocument::fromJson(line.mid(6)).object();
            any = true;
        }
    }
    return out;
}

QStringList messages(const QList<Event>& events)
{
    QStringList out;
    for (const Event& e : events)
        if (e.event == "log")
            out << e.data.value("message").toString();
    return out;
}

} // namespace

class TestApiLogs : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    QString m_id; // a nano sandbox most cases use

    QList<Event> tail(const QString& id, int n, const QByteArray& key = "<default>")
    {
        const auto r = m_server.request(
            "GET", "/api/sandboxes/" + id + "/logs?follow=false&tail=" + QString::number(n), {},
            key);
        if (r.status != 200)
            qWarning("logs: %s", qPrintable(describe(r)));
        return parseEvents(r.body);
    }

    // The first log line whose message contains `needle`, waiting up to `ms`.
    QJsonObject waitForLine(const QString& id, const QString& needle, int ms)
    {
        QElapsedTimer t;
        t.start();
        do {
            for (const Event& e : tail(id, 10000))
                if (e.event == "log" && e.data.value("message").toString().contains(needle))
                    return e.data;
            QTest::qWait(100);
        } while (t.elapsed() < ms);
        return {};
    }

    std::unique_ptr<QTcpSocket> follow(const QString& id, const QByteArray& key, int tailLines)
    {
        auto s = std::make_unique<QTcpSocket>();
        s->connectToHost("127.0.0.1", quint16(m_server.port()));
        if (!s->waitForConnected(5000))
            return nullptr;
        s->write(
            "GET /api/sandboxes/" + id.toUtf8() + "/logs?tail=" + QByteArray::number(tailLines) +
            " HTTP/1.1\r\nHost: x\r\nX-API-Key: " + key + "\r\nAccept: text/event-stream\r\n\r\n");
        return s;
    }

    static bool readUntil(QTcpSocket& s, QByteArray& got, const QByteArray& needle, int ms)
    {
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < ms && !got.contains(needle)) {
            s.waitForReadyRead(20);
            got += s.readAll();
        }
        return got.contains(needle);
    }

    static bool waitClosed(QTcpSocket& s, QByteArray& got, int ms)
    {
        QElapsedTimer t;
        t.start();
        while (s.state() == QAbstractSocket::ConnectedState && t.elapsed() < ms) {
            s.waitForReadyRead(50);
            got += s.readAll();
        }
        got += s.readAll();
        return s.state() != QAbstractSocket::ConnectedState;
    }

    QString exec(const QString& id, const QString& cmd)
    {
        const auto r = m_server.request("POST", "/api/sandboxes/" + id + "/exec",
                                        toJson({{"cmd", cmd}, {"timeoutMs", 60000}}));
        return r.status == 200 ? QString::number(jsonObject(r).value("exitCode").toInt())
                               : describe(r);
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        QString why;
        m_id = createSandbox(m_server, {{"size", "nano"}, {"timeoutMs", 600000}}, &why);
        LIZ_REQUIRE_SANDBOX(m_id, why);
    }

    void lifecycleLinesInOrder()
    {
        QString why;
        const QString id = createSandbox(m_server, {{"size", "nano"}}, &why);
        LIZ_REQUIRE_SANDBOX(id, why);
        const QString base = "/api/sandboxes/" + id;
        QCOMPARE(
            m_server.request("POST", base + "/timeout", toJson({{"timeoutMs", 300000}})).status,
            204);
        QCOMPARE(m_server.request("POST", base + "/pause").status, 204);
        QCOMPARE(m_server.request("POST", base + "/resume").status, 204);
        const auto snap = m_server.request("POST", base + "/snapshot", toJson({{"name", "logs"}}));
        QVERIFY2(snap.status == 200, qPrintable(describe(snap)));
        const QString snapId = jsonObject(snap).value("id").toString();
        const auto fork = m_server.request("POST", base + "/fork", toJson({}));
        QVERIFY2(fork.status == 200, qPrintable(describe(fork)));
        const QString forkId = QJsonDocument::fromJson(fork.body)
                                   .array()
                                   .at(0)
                                   .toObject()
                                   .value("sandbox")
                                   .toObject()
                                   .value("sandboxId")
                                   .toString();
        QVERIFY2(!forkId.isEmpty(), fork.body.constData());

        const QList<Event> events = tail(id, 100);
        QStringList lifecycle;
        qint64 lastSeq = 0;
        for (const Event& e : events) {
            if (e.event != "log")
                continue;
            // Each event: id = the line's sequence number, and a LogLine.
            QCOMPARE(e.id.toLongLong(), qint64(e.data.value("seq").toDouble()));
            QVERIFY(e.id.toLongLong() > lastSeq);
            lastSeq = e.id.toLongLong();
            QVERIFY(e.data.value("ts").toDouble() > 1.7e12);
            QVERIFY(!e.data.value("level").toString().isEmpty());
            if (e.data.value("source").toString() == "lifecycle")
                lifecycle << e.data.value("message").toString();
        }
        QCOMPARE(lifecycle.size(), 6);
        QVERIFY2(lifecycle[0].startsWith("created (template base, size nano"),
                 qPrintable(lifecycle[0]));
        QVERIFY2(lifecycle[1].startsWith("timeout set to 300 s"), qPrintable(lifecycle[1]));
        QCOMPARE(lifecycle[2], QStringLiteral("paused"));
        QCOMPARE(lifecycle[3], QStringLiteral("resumed"));
        QCOMPARE(lifecycle[4], "snapshot " + snapId + " taken");
        QCOMPARE(lifecycle[5], "forked into " + forkId);
        const QStringList forkLines = messages(tail(forkId, 100));
        QVERIFY2(forkLines.value(0).startsWith("created"), qPrintable(forkLines.join("\n")));
        QCOMPARE(forkLines.value(1), "forked from " + id);

        // Killed: a last line, then an `end` event, and the answer ends.
        auto s = follow(id, m_server.apiKey().toUtf8(), 0);
        QVERIFY(s);
        QByteArray got;
        QVERIFY2(readUntil(*s, got, ": following", 5000), got.constData());
        QCOMPARE(m_server.request("DELETE", base).status, 204);
        // The answer ends (its last chunk), as an exec stream's does; the connection may stay.
        QVERIFY2(readUntil(*s, got, "\r\n0\r\n\r\n", 5000), got.constData());
        QVERIFY2(got.contains("\"message\":\"killed\""), got.constData());
        QVERIFY2(got.contains("event: end\ndata: {\"reason\":\"sandbox ended\"}"), got.constData());
        QCOMPARE(m_server.request("DELETE", "/api/sandboxes/" + forkId).status, 204);
    }

    void tailGivesTheLastLines()
    {
        if (m_id.isEmpty())
            QSKIP("no sandbox");
        for (int i = 0; i < 12; ++i)
            QCOMPARE(m_server
                         .request("POST", "/api/sandboxes/" + m_id + "/timeout",
                                  toJson({{"timeoutMs", 600000 + i * 1000}}))
                         .status,
                     204);
        const QList<Event> all = tail(m_id, 10000);
        QVERIFY(all.size() >= 13);
        const QList<Event> five = tail(m_id, 5);
        QCOMPARE(five.size(), 6); // five lines and the end of a non-following read
        QCOMPARE(five.last().event, QStringLiteral("end"));
        for (int i = 0; i < 5; ++i)
            QCOMPARE(five[i].id, all[all.size() - 6 + i].id);
        QVERIFY(five[4].data.value("message").toString().startsWith("timeout set to 611 s"));
        QCOMPARE(tail(m_id, 0).size(), 1);
        // The default is 100 lines; beyond 10000 or not a number is refused.
        for (const char* bad : {"10001", "-1", "abc", "5x"}) {
            const auto r = m_server.request("GET", "/api/sandboxes/" + m_id + "/logs?tail=" + bad);
            QVERIFY2(isError(r, 400, "INVALID_ARGUMENT"), qPrintable(describe(r)));
        }
    }

    void signalKillIsLogged()
    {
        if (m_id.isEmpty())
            QSKIP("no sandbox");
        QCOMPARE(exec(m_id, "kill -USR1 $$"), QStringLiteral("138"));
        const QJsonObject line = waitForLine(m_id, "killed by SIGUSR1", 5000);
        QVERIFY2(!line.isEmpty(), qPrintable(messages(tail(m_id, 20)).join("\n")));
        const QString message = line.value("message").toString();
        QVERIFY2(message.contains(QRegularExpression("^pid \\d+ \\(bash\\) killed by SIGUSR1: "
                                                     ".*kill -USR1 \\$\\$")),
                 qPrintable(message));
        QCOMPARE(line.value("level").toString(), QStringLiteral("warn"));
        QCOMPARE(line.value("source").toString(), QStringLiteral("agent"));
    }

    void oomKillIsAnError()
    {
        if (m_id.isEmpty())
            QSKIP("no sandbox");
        const QJsonObject info = jsonObject(m_server.request("GET", "/api/sandboxes/" + m_id));
        const QString by = info.value("limits").toObject().value("enforcedBy").toString();
        if (by != "cgroup")
            QSKIP(qPrintable("no memory cgroup on this host (limits enforced by " + by + ")"));
        // Each process may use the sandbox's memory (RLIMIT_DATA): a holder takes 400 MiB, so
        // the grower fills the memory cgroup first and the OOM killer takes it. The grower
        // starts once the holder has its memory (a fixed pause lost that race on a busy host).
        const QString code = exec(
            m_id, "rm -f /tmp/held; python3 -c \"import time; b = b'y' * (400 << 20); "
                  "open('/tmp/held', 'w').close(); time.sleep(10)\" >/dev/null 2>&1 & while [ ! "
                  "-e /tmp/held ]; do sleep 0.05; done; exec python3 -c \"a = [b'x' * (32 << 20) "
                  "for _ in range(100)]\"");
        QCOMPARE(code, QStringLiteral("137"));
        // The holder may be killed too (first, while it is the bigger one, without a name:
        // the grower, not the agent, is its parent): wait for the grower's line.
        const QJsonObject line = waitForLine(m_id, "python3 (out of memory", 5000);
        QVERIFY2(!line.isEmpty(), qPrintable(messages(tail(m_id, 20)).join("\n")));
        const QString message = line.value("message").toString();
        QVERIFY2(message.contains(QRegularExpression(
                     "^OOM: killed \\d+ python3 \\(out of memory, limit \\d+ MiB\\)")),
                 qPrintable(message));
        QCOMPARE(line.value("level").toString(), QStringLiteral("error"));
        QCOMPARE(line.value("source").toString(), QStringLiteral("kernel"));
    }

    void liveLinesWithinASecond()
    {
        if (m_id.isEmpty())
            QSKIP("no sandbox");
        auto s = follow(m_id, m_server.apiKey().toUtf8(), 0);
        QVERIFY(s);
        QByteArray got;
        QVERIFY2(readUntil(*s, got, ": following", 5000), got.constData());
        QElapsedTimer t;
        t.start();
        QCOMPARE(m_server
                     .request("POST", "/api/sandboxes/" + m_id + "/timeout",
                              toJson({{"timeoutMs", 777000}}))
                     .status,
                 204);
        QVERIFY2(readUntil(*s, got, "timeout set to 777 s", 1000), got.constData());
        const qint64 lifecycleMs = t.elapsed();
        // A line the server learns from the agent's log (polled).
        QCOMPARE(exec(m_id, "kill -USR2 $$"), QStringLiteral("140"));
        t.restart();
        QVERIFY2(readUntil(*s, got, "killed by SIGUSR2", 1000), got.constData());
        qInfo("live line after %lld ms (lifecycle), %lld ms (agent)", lifecycleMs, t.elapsed());
    }

    void readOnlyKeyMayReadAndRevokingEndsTheStream()
    {
        if (m_id.isEmpty())
            QSKIP("no sandbox");
        auto createKey = [&](const QJsonObject& body) {
            const auto r = m_server.request("POST", "/api/account/api-keys", toJson(body));
            return jsonObject(r);
        };
        const QJsonObject ro = createKey(
            {{"name", "reader"},
             {"scopes", QJsonArray{QJsonObject{{"type", "access"}, {"id", "read-only"}}}}});
        QVERIFY(!ro.value("key").toString().isEmpty());
        const QList<Event> events = tail(m_id, 3, ro.value("key").toString().toUtf8());
        QCOMPARE(events.size(), 4);

        const QJsonObject key = createKey({{"name", "follower"}});
        auto s = follow(m_id, key.value("key").toString().toUtf8(), 1);
        QVERIFY(s);
        QByteArray got;
        QVERIFY2(readUntil(*s, got, "event: log", 5000), got.constData());
        QCOMPARE(m_server.request("DELETE", "/api/account/api-keys/" + key.value("id").toString())
                     .status,
                 204);
        QVERIFY2(readUntil(*s, got, "KEY_REVOKED", 2000), got.constData());
        QVERIFY2(waitClosed(*s, got, 2000), got.constData());
    }

    void survivesARestart()
    {
        if (m_id.isEmpty())
            QSKIP("no sandbox");
        const QList<Event> before = tail(m_id, 10000);
        QVERIFY(before.size() > 10);
        QVERIFY(m_server.restart());
        QCOMPARE(m_server
                     .request("POST", "/api/sandboxes/" + m_id + "/timeout",
                              toJson({{"timeoutMs", 500000}}))
                     .status,
                 204);
        const QList<Event> after = tail(m_id, 10000);
        QCOMPARE(after.size(), before.size() + 1);
        for (int i = 0; i + 1 < before.size(); ++i)
            QCOMPARE(after[i].data, before[i].data); // nothing lost, nothing repeated
        QCOMPARE(after[after.size() - 2].id.toLongLong(),
                 before[before.size() - 2].id.toLongLong() + 1);
    }

    void errors()
    {
        const auto r = m_server.request("GET", "/api/sandboxes/sb_nosuchsandbox00/logs");
        QVERIFY2(isError(r, 404, "NOT_FOUND"), qPrintable(describe(r)));
        const auto noKey =
            m_server.request("GET", "/api/sandboxes/sb_nosuchsandbox00/logs", {}, {});
        QCOMPARE(noKey.status, 401);
        if (!m_id.isEmpty()) {
            const auto bad =
                m_server.request("GET", "/api/sandboxes/" + m_id + "/logs?follow=maybe");
            QVERIFY2(isError(bad, 400, "INVALID_ARGUMENT"), qPrintable(describe(bad)));
        }
    }

    void cleanupTestCase()
    {
        if (!m_id.isEmpty())
            m_server.request("DELETE", "/api/sandboxes/" + m_id);
    }
};

QTEST_GUILESS_MAIN(TestApiLogs)
#include "tst_api_logs.moc"
