// Escape suite: a wedged agent or a flood of calls must not hang lizard-local or make it (or
// the agent) grow without bound. A sandbox's agent is frozen with SIGSTOP to its PID 1 (host
// pid from <data-dir>/sandboxes/<id>/init.pid); calls then end with 504
// SANDBOX_UNRESPONSIVE within the deadline, another sandbox keeps answering, and after
// SIGCONT the sandbox works again. The server runs with LIZARD_AGENT_DEADLINE_MS = 800.
#include "agentcalls_support.h"
#include "escape_support.h"

#include <QDir>
#include <QElapsedTimer>
#include <QTcpSocket>
#include <atomic>
#include <thread>

using namespace lizard::test;

namespace {

constexpr int kDeadlineMs = 800;
// Silence T, then a ping that waits T, plus one period when a recent ping answered: 3T.
// The rest is room for a loaded machine.
constexpr int kAnswerWithinMs = 3 * kDeadlineMs + 2000;

} // namespace

class TestSecAgentCalls : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    QString m_victim, m_bystander;
    qint64 m_agentPid = 0;

    QString path(const QString& id, const QString& rest) const
    {
        return "/api/sandboxes/" + id + rest;
    }

    Timed timed(const QByteArray& method, const QString& p, const QByteArray& body = {},
                const QList<QByteArray>& headers = {}) const
    {
        QElapsedTimer t;
        t.start();
        Timed out;
        out.r = m_server.request(method, p, body, "<default>", headers);
        out.ms = t.elapsed();
        return out;
    }

    // The agent's threads besides the 64 it may serve with: main, reaper and lease watchdog, and
    // the watch on its quota file system's daemon where the sandbox's disk is one.
    int agentFixedThreads() const
    {
        const auto info = m_server.request("GET", "/api/sandboxes/" + m_victim);
        const QJsonObject limits =
            QJsonDocument::fromJson(info.body).object().value("limits").toObject();
        return limits.value("disk").toString() == QLatin1String("quota") ? 4 : 3;
    }

    qint64 serverPid() const
    {
        QFile f(m_server.dataDir() + "/server.json");
        return f.open(QIODevice::ReadOnly)
                   ? QJsonDocument::fromJson(f.readAll()).object().value("pid").toInteger()
                   : 0;
    }

    // A raw SSE exec, so that the test can freeze the agent while it runs.
    std::unique_ptr<QTcpSocket> openStream(const QString& id, const QString& cmd)
    {
        auto s = std::make_unique<QTcpSocket>();
        s->connectToHost("127.0.0.1", quint16(m_server.port()));
        if (!s->waitForConnected(5000))
            return nullptr;
        const QByteArray json =
            toJson(QJsonObject{{"cmd", cmd}, {"timeoutMs", 60000}, {"pidEvent", true}});
        s->write(
            "POST " + path(id, "/exec").toUtf8() +
            " HTTP/1.1\r\nHost: x\r\nX-API-Key: " + m_server.apiKey().toUtf8() +
            "\r\nAccept: text/event-stream\r\nContent-Type: application/json\r\nContent-Length: " +
            QByteArray::number(json.size()) + "\r\n\r\n" + json);
        return s;
    }

    // The victim answers files, list and exec normally (the control around each freeze).
    void expectVictimWorks()
    {
        const auto read = m_server.request("GET", path(m_victim, "/files?path=/etc/hostname"));
        QCOMPARE(read.status, 200);
        const auto list = m_server.request("GET", path(m_victim, "/files/list?path=/etc"));
        QVERIFY2(list.status == 200 && !jsonArray(list).isEmpty(), qPrintable(describe(list)));
        const ProbeResult p = runShell(m_server, m_victim, "echo alive");
        QVERIFY2(p.httpStatus == 200 && p.out == "alive\n", qPrintable(p.describe()));
    }

private slots:
    void initTestCase()
    {
        qputenv("LIZARD_AGENT_DEADLINE_MS", QByteArray::number(kDeadlineMs));
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        QString why;
        m_victim = createSandbox(m_server, {}, &why);
        QVERIFY2(!m_victim.isEmpty(), qPrintable(why));
        m_bystander = createSandbox(m_server, {}, &why);
        QVERIFY2(!m_bystander.isEmpty(), qPrintable(why));
        QFile pidFile(m_server.dataDir() + "/sandboxes/" + m_victim + "/init.pid");
        QVERIFY2(pidFile.open(QIODevice::ReadOnly),
                 "the runtime records the agent's host pid in init.pid");
        m_agentPid = QString::fromUtf8(pidFile.readAll()).split(' ').value(0).toLongLong();
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(m_agentPid));
        QVERIFY(cmdline.open(QIODevice::ReadOnly));
        QVERIFY2(cmdline.readAll().contains("lizard-agent"),
                 "init.pid names the sandbox's lizard-agent");
    }

    void cleanupTestCase()
    {
        if (m_agentPid > 0)
            ::kill(pid_t(m_agentPid), SIGCONT);
        for (const QString& id : {m_victim, m_bystander})
            if (!id.isEmpty())
                m_server.request("DELETE", "/api/sandboxes/" + id);
        m_server.stop();
    }

    // One freeze (shorter than the two health checks that would declare the sandbox lost):
    // a files read, a list, a collected exec, a streamed exec started before and one started
    // during the freeze all end with the typed error in time; the other sandbox answers.
    void frozenAgentCallsEndWithTypedError()
    {
        expectVictimWorks();
        auto stream = openStream(m_victim, "sleep 30");
        QVERIFY(stream);
        QByteArray streamed;
        QElapsedTimer wait;
        wait.start();
        while (!streamed.contains("\"pid\"") && wait.elapsed() < 10000) {
            stream->waitForReadyRead(100);
            streamed += stream->readAll();
        }
        QVERIFY2(streamed.contains("\"pid\""), streamed.constData());

        Frozen frozen(m_agentPid);
        QVERIFY(frozen.stopped());
        QElapsedTimer since;
        since.start();
        Timed read, list, exec, sse, otherRead, otherExec;
        std::thread t1([&] { read = timed("GET", path(m_victim, "/files?path=/etc/hostname")); });
        std::thread t2([&] { list = timed("GET", path(m_victim, "/files/list?path=/etc")); });
        std::thread t3([&] {
            exec = timed("POST", path(m_victim, "/exec"), toJson(QJsonObject{{"cmd", "echo x"}}));
        });
        std::thread t4([&] {
            sse = timed("POST", path(m_victim, "/exec"), toJson(QJsonObject{{"cmd", "echo x"}}),
                        {"Accept: text/event-stream"});
        });
        std::thread t5(
            [&] { otherRead = timed("GET", path(m_bystander, "/files?path=/etc/hostname")); });
        std::thread t6([&] {
            otherExec = timed("POST", path(m_bystander, "/exec"),
                              toJson(QJsonObject{{"cmd", "echo other"}}));
        });
        // The running stream: an error event, then the connection is cut.
        while (!streamed.contains("SANDBOX_UNRESPONSIVE") && since.elapsed() < 15000) {
            stream->waitForReadyRead(100);
            streamed += stream->readAll();
        }
        const qint64 streamMs = since.elapsed();
        stream->waitForDisconnected(3000);
        const bool cut = stream->state() == QAbstractSocket::UnconnectedState;
        for (auto* t : {&t1, &t2, &t3, &t4, &t5, &t6})
            t->join();
        const qint64 frozenFor = since.elapsed();
        frozen.thaw();
        qInfo("frozen agent: read %lld ms, list %lld ms, exec %lld ms, sse exec %lld ms, running "
              "stream %lld ms; "
              "other sandbox read %lld ms, exec %lld ms (T = %d ms)",
              read.ms, list.ms, exec.ms, sse.ms, streamMs, otherRead.ms, otherExec.ms, kDeadlineMs);

        for (const auto& [name, call] :
             {std::pair{"read", read}, {"list", list}, {"exec", exec}, {"sse exec", sse}}) {
            QVERIFY2(isError(call.r, 504, "SANDBOX_UNRESPONSIVE"),
                     qPrintable(QString("%1: %2").arg(name, describe(call.r))));
            QVERIFY2(call.ms < kAnswerWithinMs,
                     qPrintable(QString("%1 took %2 ms").arg(name).arg(call.ms)));
        }
        QVERIFY2(streamed.contains("\"error\":\"SANDBOX_UNRESPONSIVE\""), streamed.constData());
        QVERIFY2(!streamed.contains("exitCode"), "a cut stream must never look like a normal end");
        QVERIFY2(streamMs < kAnswerWithinMs,
                 qPrintable(QString("the stream noticed after %1 ms").arg(streamMs)));
        QVERIFY2(cut, "the stream is cut after the error event");
        // The bystander is not held up by the frozen sandbox.
        QVERIFY2(otherRead.r.status == 200 && otherRead.ms < 2000,
                 qPrintable(describe(otherRead.r)));
        QVERIFY2(otherExec.r.status == 200 &&
                     jsonObject(otherExec.r).value("stdout") == "other\n" && otherExec.ms < 2000,
                 qPrintable(describe(otherExec.r)));
        QVERIFY2(frozenFor < 5000, qPrintable(QString("frozen for %1 ms").arg(frozenFor)));
        // After SIGCONT the sandbox is fine (and was not declared lost meanwhile).
        expectVictimWorks();
    }

    // 200 slow commands at once to one sandbox: lizard-local's threads stay as they were, the
    // agent's stay under its cap, excess calls get 429 SANDBOX_BUSY, and another sandbox
    // answers promptly throughout.
    void floodOfSlowCallsStaysBounded()
    {
        const qint64 server = serverPid();
        QVERIFY(server > 0);
        const int serverThreads = threadsOf(server);
        QVERIFY(serverThreads > 0);
        std::atomic<bool> running{true};
        std::atomic<int> maxServer{0}, maxAgent{0};
        std::thread sampler([&] {
            while (running) {
                maxServer = std::max(maxServer.load(), threadsOf(server));
                maxAgent = std::max(maxAgent.load(), threadsOf(m_agentPid));
                QThread::msleep(20);
            }
        });
        std::vector<LocalServer::Response> answers(200);
        std::vector<std::thread> callers;
        for (int i = 0; i < 200; ++i)
            callers.emplace_back([&, i] {
                answers[size_t(i)] =
                    m_server.request("POST", path(m_victim, "/exec"),
                                     toJson(QJsonObject{{"cmd", "sleep 5"}, {"timeoutMs", 30000}}));
            });
        QThread::msleep(500);
        qint64 slowest = 0;
        for (int i = 0; i < 5; ++i) {
            const Timed r = timed("GET", path(m_bystander, "/files?path=/etc/hostname"));
            QVERIFY2(r.r.status == 200, qPrintable(describe(r.r)));
            const Timed e =
                timed("POST", path(m_bystander, "/exec"), toJson(QJsonObject{{"cmd", "true"}}));
            QVERIFY2(e.r.status == 200, qPrintable(describe(e.r)));
            slowest = std::max({slowest, r.ms, e.ms});
            QThread::msleep(200);
        }
        for (auto& t : callers)
            t.join();
        running = false;
        sampler.join();

        int ok = 0, busy = 0;
        for (const auto& a : answers) {
            if (a.status == 200 && jsonObject(a).value("exitCode").toInt(-1) == 0)
                ++ok;
            else if (isError(a, 429, "SANDBOX_BUSY"))
                ++busy;
            else
                QFAIL(qPrintable("unexpected answer: " + describe(a)));
        }
        qInfo("flood: %d ran, %d got 429; threads: server %d -> max %d, agent max %d; bystander "
              "slowest %lld ms",
              ok, busy, serverThreads, maxServer.load(), maxAgent.load(), slowest);
        QVERIFY2(ok >= 32, "the first 32 commands run");
        QVERIFY2(busy > 0, "past the cap, calls are refused rather than queued without end");
        QVERIFY2(maxServer <= serverThreads + 2, "lizard-local starts no thread per call");
        QVERIFY2(maxAgent <= 64 + agentFixedThreads(),
                 "the agent serves at most 64 requests at once (+ its fixed threads)");
        QVERIFY2(slowest < 1500, "another sandbox answers promptly during the flood");
        // Control: the flooded sandbox works once the flood is over.
        expectVictimWorks();
    }

    // Straight at the agent's socket (as lizard-local's own liveness pings are): past its
    // cap the agent refuses requests with BUSY but still answers pings.
    void agentAtItsCapStillAnswersPings()
    {
        const QString sock = m_server.dataDir() + "/run/" + m_victim + ".sock";
        std::vector<int> held;
        for (int i = 0; i < 64; ++i) {
            const int fd = connectUnix(sock);
            QVERIFY2(fd >= 0, "connect to the agent socket");
            held.push_back(fd);
            const QJsonObject r =
                askRaw(fd, R"({"op":"exec","argv":["sleep","20"],"timeoutMs":30000})");
            QVERIFY2(r.value("ok").toBool(),
                     qPrintable("exec " + QString::number(i) + " did not start"));
        }
        const int agentThreads = threadsOf(m_agentPid);
        const int extra = connectUnix(sock);
        QVERIFY(extra >= 0);
        const QJsonObject refused = askRaw(extra, R"({"op":"exec","argv":["true"]})");
        ::close(extra);
        const int pingFd = connectUnix(sock);
        QVERIFY(pingFd >= 0);
        QElapsedTimer t;
        t.start();
        const QJsonObject pong = askRaw(pingFd, R"({"op":"ping"})");
        const qint64 pingMs = t.elapsed();
        ::close(pingFd);
        for (int fd : held)
            ::close(fd); // the agent kills those commands
        QVERIFY2(refused.value("code").toString() == "BUSY",
                 QJsonDocument(refused).toJson().constData());
        QVERIFY2(pong.value("ok").toBool(), "a ping is answered at the cap");
        QVERIFY2(pingMs < 1000, qPrintable(QString("ping took %1 ms").arg(pingMs)));
        QVERIFY2(agentThreads <= 64 + agentFixedThreads(),
                 qPrintable(QString("agent threads at the cap: %1").arg(agentThreads)));
        // Control: once those ended, calls through the API work again.
        QElapsedTimer settle;
        settle.start();
        while (threadsOf(m_agentPid) > 4 && settle.elapsed() < 10000)
            QThread::msleep(50);
        expectVictimWorks();
    }
};

QTEST_GUILESS_MAIN(TestSecAgentCalls)
#include "tst_sec_agentcalls.moc"
