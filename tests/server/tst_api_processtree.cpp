// The process tree of a sandbox (a local extension): every process of its pid namespace with
// parent, user, CPU and memory, and signals to any of them but its init.
#include "support_execstream.h"

#include <algorithm>

using lizard::test::describe;
using lizard::test::isError;
using lizard::test::jsonObject;
using lizard::test::LocalServer;
using lizard::test::toJson;

class TestApiProcessTree : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    QString m_id;

    QJsonArray tree(const QString& id)
    {
        const auto r = m_server.request("GET", "/api/sandboxes/" + id + "/processes/tree");
        if (r.status != 200)
            qWarning() << describe(r);
        return jsonObject(r).value("processes").toArray();
    }
    QJsonArray tree() { return tree(m_id); }

    static QJsonObject byPid(const QJsonArray& processes, int pid)
    {
        for (const auto& v : processes)
            if (v.toObject().value("pid").toInt() == pid)
                return v.toObject();
        return {};
    }

    static QList<int> childrenOf(const QJsonArray& processes, int parent)
    {
        QList<int> out;
        for (const auto& v : processes)
            if (v.toObject().value("ppid").toInt() == parent)
                out << v.toObject().value("pid").toInt();
        return out;
    }

    LocalServer::Response signal(const QString& id, const QJsonObject& body)
    {
        return m_server.request("POST", "/api/sandboxes/" + id + "/processes/tree/signal",
                                toJson(body));
    }

    QString sh(const QString& id, const QString& cmd, const QString& user = "root")
    {
        const auto r = m_server.request("POST", "/api/sandboxes/" + id + "/exec",
                                        toJson({{"cmd", cmd}, {"user", user}}));
        return jsonObject(r).value("stdout").toString();
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        QString why;
        m_id = lizard::test::createSandbox(m_server, {}, &why);
        LIZ_REQUIRE_SANDBOX(m_id, why);
    }

    void execAndItsChildrenWithParentsAndUsers()
    {
        auto s = lizard::test::openExecStream(
            m_server, m_id, {{"cmd", "sleep 301 & sleep 302 & wait"}, {"pidEvent", true}});
        QVERIFY(s);
        QByteArray got;
        const int pid = lizard::test::readPidEvent(*s, got);
        QVERIFY2(pid > 0, got.constData());
        QJsonArray all;
        // Both children asleep: a sleep just forked may still be running ("R") for a moment.
        const auto bothAsleep = [&] {
            const QList<int> kids = childrenOf(all = tree(), pid);
            return kids.size() == 2 && std::all_of(kids.begin(), kids.end(), [&](int k) {
                       return byPid(all, k).value("state").toString() == QLatin1String("S");
                   });
        };
        QTRY_VERIFY_WITH_TIMEOUT(bothAsleep(), 10000);
        const QJsonObject shell = byPid(all, pid);
        QVERIFY(shell.value("exec").toBool());
        QCOMPARE(shell.value("user").toString(), QStringLiteral("root"));
        for (int child : childrenOf(all, pid)) {
            const QJsonObject p = byPid(all, child);
            QVERIFY(!p.value("exec").toBool()); // started by the shell, not by exec
            QVERIFY2(p.value("command").toString().startsWith("sleep 30"),
                     qPrintable(p.value("command").toString()));
            QCOMPARE(p.value("cmd").toArray().first().toString(), QStringLiteral("sleep"));
            QVERIFY(p.value("rssBytes").toDouble() > 0);
            QCOMPARE(p.value("state").toString(), QStringLiteral("S"));
            const qint64 started = qint64(p.value("startedAt").toDouble());
            QVERIFY2(qAbs(QDateTime::currentMSecsSinceEpoch() - started) < 120000,
                     qPrintable(QString::number(started)));
        }
        // PID 1 is the sandbox's init, flagged so that a client does not offer to kill it.
        QVERIFY(byPid(all, 1).value("system").toBool());
        QCOMPARE(byPid(all, 1).value("ppid").toInt(), 0);

        // A signal to one child leaves its sibling and its parent.
        const QList<int> kids = childrenOf(all, pid);
        QCOMPARE(signal(m_id, {{"pid", kids[0]}, {"signal", "SIGTERM"}}).status, 204);
        QTRY_VERIFY_WITH_TIMEOUT(byPid(tree(), kids[0]).isEmpty(), 5000);
        QVERIFY(!byPid(tree(), kids[1]).isEmpty());
        // A tree signal ends the shell and what is left under it; the exec ends.
        const auto r = signal(m_id, {{"pid", pid}, {"signal", "SIGKILL"}, {"tree", true}});
        QVERIFY2(r.status == 204, qPrintable(describe(r)));
        QTRY_VERIFY_WITH_TIMEOUT((got += s->readAll()).contains("\"exitCode\""), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(byPid(tree(), kids[1]).isEmpty(), 5000);
    }

    void anotherUsersProcessShowsItsName()
    {
        const QString pid = sh(m_id, "sleep 303 >/dev/null 2>&1 & echo $!", "user").trimmed();
        QVERIFY2(pid.toInt() > 0, qPrintable(pid));
        QJsonObject p;
        QTRY_VERIFY_WITH_TIMEOUT(!(p = byPid(tree(), pid.toInt())).isEmpty(), 5000);
        QCOMPARE(p.value("user").toString(), QStringLiteral("user"));
        QCOMPARE(signal(m_id, {{"pid", pid.toInt()}, {"signal", "SIGKILL"}}).status, 204);
    }

    void cpuTimeGrowsWhileAProcessSpins()
    {
        const int pid =
            sh(m_id, "sh -c 'while :; do :; done' >/dev/null 2>&1 & echo $!").trimmed().toInt();
        QVERIFY(pid > 0);
        QTRY_VERIFY_WITH_TIMEOUT(byPid(tree(), pid).value("cpuMs").toDouble() >= 200, 20000);
        QCOMPARE(signal(m_id, {{"pid", pid}, {"signal", "SIGKILL"}}).status, 204);
        QTRY_VERIFY_WITH_TIMEOUT(byPid(tree(), pid).isEmpty(), 5000);
    }

    void initIsRefusedAndTheSandboxLives()
    {
        const auto r = signal(m_id, {{"pid", 1}, {"signal", "SIGKILL"}});
        QVERIFY2(isError(r, 403, "PERMISSION_DENIED"), qPrintable(describe(r)));
        QVERIFY(jsonObject(r).value("message").toString().contains("init"));
        QCOMPARE(sh(m_id, "echo alive"), QStringLiteral("alive\n")); // the control
    }

    void badRequestsGetClearErrors()
    {
        QVERIFY(isError(signal(m_id, {{"pid", 4000000}}), 404, "NOT_FOUND"));
        QVERIFY(isError(signal(m_id, {{"signal", "SIGTERM"}}), 400, "INVALID_ARGUMENT"));
        QVERIFY(isError(signal(m_id, {{"pid", -3}}), 400, "INVALID_ARGUMENT"));
        QVERIFY(
            isError(signal(m_id, {{"pid", 2}, {"signal", "SIGSTOP"}}), 400, "INVALID_ARGUMENT"));
        QVERIFY(isError(signal(m_id, {{"pid", 2}, {"tree", "yes"}}), 400, "INVALID_ARGUMENT"));
        QVERIFY(isError(m_server.request("GET", "/api/sandboxes/nope/processes/tree"), 404,
                        "NOT_FOUND"));
    }

    void anotherSandboxIsOutOfReach()
    {
        QString why;
        const QString other = lizard::test::createSandbox(m_server, {}, &why);
        LIZ_REQUIRE_SANDBOX(other, why);
        const int theirs = sh(other, "sleep 304 >/dev/null 2>&1 & echo $!").trimmed().toInt();
        QVERIFY(theirs > 0);
        // Its process is not in this sandbox's tree...
        for (const auto& v : tree())
            QVERIFY(!v.toObject().value("command").toString().contains("sleep 304"));
        // ...and a signal to its pid from here reaches at most this sandbox's own pid.
        signal(m_id, {{"pid", theirs}, {"signal", "SIGKILL"}, {"tree", true}});
        QTest::qWait(300);
        QVERIFY(byPid(tree(other), theirs).value("command").toString().contains("sleep 304"));
        QCOMPARE(m_server.request("DELETE", "/api/sandboxes/" + other).status, 204);
    }

    void cleanupTestCase()
    {
        if (!m_id.isEmpty())
            m_server.request("DELETE", "/api/sandboxes/" + m_id);
    }
};

QTEST_GUILESS_MAIN(TestApiProcessTree)
#include "tst_api_processtree.moc"
