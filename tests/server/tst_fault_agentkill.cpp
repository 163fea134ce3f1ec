// Fault: the sandbox's agent (its PID 1) is killed with SIGKILL while an exec streams. The
// caller gets a typed error event and the end of the stream within seconds (no hang, no
// silent close that would read as a normal end); the sandbox is reported gone; none of its
// processes, mounts, cgroups or loop devices stay; the server keeps answering.
#include "fault_support.h"
#include "support/proctree.h"

#include <QElapsedTimer>
#include <QTcpSocket>
#include <csignal>

using namespace lizard::test;

class TestFaultAgentKill : public QObject
{
    Q_OBJECT

    LocalServer m_server;

    std::unique_ptr<QTcpSocket> openStream(const QString& id, const QJsonObject& body)
    {
        auto s = std::make_unique<QTcpSocket>();
        s->connectToHost("127.0.0.1", quint16(m_server.port()));
        if (!s->waitForConnected(5000))
            return nullptr;
        const QByteArray json = toJson(body);
        s->write("POST /api/sandboxes/" + id.toUtf8() +
                 "/exec HTTP/1.1\r\nHost: x\r\nX-API-Key: " + m_server.apiKey().toUtf8() +
                 "\r\nAccept: text/event-stream\r\nContent-Type: application/json\r\n"
                 "Content-Length: " +
                 QByteArray::number(json.size()) + "\r\n\r\n" + json);
        return s;
    }

private slots:
    void initTestCase() { QVERIFY2(m_server.start(), qPrintable(m_server.errorString())); }

    void agentKilledDuringStreamingExec()
    {
        QString why;
        const QString id = createSandbox(m_server, {}, &why);
        LIZ_REQUIRE_SANDBOX(id, why);
        const auto [pid1, start1] = initPidOf(m_server, id);
        QVERIFY2(pid1 > 1 && liveStartTime(pid1) == start1, qPrintable(m_server.dataDir()));

        // A command that prints forever, with a child of its own in the background.
        auto s = openStream(id, {{"cmd", "sleep 600 & while :; do echo tick; sleep 0.1; done"}});
        QVERIFY(s);
        QByteArray got;
        QTRY_VERIFY_WITH_TIMEOUT((got += s->readAll()).count("\"tick\"") >= 3, 10000);

        // Every process of the sandbox, by pid and start time (a reused pid is not a leftover).
        QList<QPair<qint64, qint64>> procs{{pid1, start1}};
        for (const ProcEntry& p : descendants(pid1))
            procs.append({p.pid, liveStartTime(p.pid)});
        QVERIFY2(procs.size() >= 3, qPrintable(QString::number(procs.size())));

        QElapsedTimer clock;
        clock.start();
        QCOMPARE(::kill(pid_t(pid1), SIGKILL), 0);
        // The stream ends: with a typed error event, then the connection is cut (not a normal
        // end of the chunked body, which a client would read as success).
        while (clock.elapsed() < 5000 && s->state() == QAbstractSocket::ConnectedState) {
            s->waitForReadyRead(100);
            got += s->readAll();
        }
        got += s->readAll();
        const qint64 endedMs = clock.elapsed();
        qInfo("stream ended %lld ms after the kill", endedMs);
        QVERIFY2(s->state() != QAbstractSocket::ConnectedState, "the stream did not end in 5 s");
        const qsizetype at = got.lastIndexOf("data: {\"code\"") >= 0
                                 ? got.lastIndexOf("data: {\"code\"")
                                 : got.lastIndexOf("data: {\"error\"");
        QVERIFY2(at >= 0, got.right(400).constData());
        const QByteArray line = got.mid(at + 6, got.indexOf('\n', at) - at - 6);
        const QJsonObject ev = QJsonDocument::fromJson(line).object();
        QVERIFY2(!ev.value("code").toString().isEmpty() &&
                     !ev.value("message").toString().isEmpty(),
                 line.constData());
        QVERIFY2(!got.contains("\"exitCode\""), got.right(400).constData());
        qInfo("error event: %s", line.constData());

        // Reported as not running (gone, 404, or stopped) right away: the broken stream makes
        // the server look at the sandbox at once, not at its next health rounds (5 s apart).
        QTRY_VERIFY_WITH_TIMEOUT(m_server.request("GET", "/api/sandboxes/" + id).status == 404 ||
                                     jsonObject(m_server.request("GET", "/api/sandboxes/" + id))
                                             .value("status")
                                             .toString() != "running",
                                 15000);
        const qint64 reportedMs = clock.elapsed();
        qInfo("reported not running %lld ms after the kill", reportedMs);
        QVERIFY2(
            reportedMs - endedMs < 4000,
            qPrintable(QString("reported %1 ms after the stream ended").arg(reportedMs - endedMs)));

        // Nothing of it is left on the host.
        for (const auto& [pid, start] : procs)
            QTRY_VERIFY2_WITH_TIMEOUT(liveStartTime(pid) != start || start == 0,
                                      qPrintable(QString("process %1 still runs").arg(pid)), 5000);
        QTRY_VERIFY2_WITH_TIMEOUT(sandboxResidue(m_server.dataDir(), id).isEmpty(),
                                  qPrintable(sandboxResidue(m_server.dataDir(), id).join('\n')),
                                  5000);

        // The API keeps answering: a list, and a new sandbox that runs a command.
        const auto list = m_server.request("GET", "/api/sandboxes");
        QVERIFY2(list.status == 200, qPrintable(describe(list)));
        const QString next = createSandbox(m_server, {}, &why);
        QVERIFY2(!next.isEmpty(), qPrintable(why));
        const auto echo = m_server.request("POST", "/api/sandboxes/" + next + "/exec",
                                           toJson({{"cmd", "echo alive"}}));
        QCOMPARE(jsonObject(echo).value("stdout").toString(), QStringLiteral("alive\n"));
        QCOMPARE(m_server.request("DELETE", "/api/sandboxes/" + next).status, 204);
        QTRY_VERIFY_WITH_TIMEOUT(sandboxResidue(m_server.dataDir(), next).isEmpty(), 5000);
    }
};

QTEST_GUILESS_MAIN(TestFaultAgentKill)
#include "tst_fault_agentkill.moc"
