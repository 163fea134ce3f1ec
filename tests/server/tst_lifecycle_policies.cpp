// Lifecycle policies on a real lizard-local (api/DECISIONS.md, "Lifecycle policies"): the
// fields at create and PATCH .../lifecycle; a deadline with onTimeout "pause" keeps files and a
// background process's memory, restarts the lifetime at a resume and can be extended while
// paused; the idle policy pauses and the next exec resumes it (a minute lasts 1 s here,
// --idle-minute-ms); a call in flight is not idleness; a request to an exposed port resumes it;
// the user's pause is never undone by a call; a restart keeps the policies and the pauser.
#include "lifecycle_support.h"
#include "proxy_support.h"

#include <QDateTime>
#include <QElapsedTimer>

using namespace lizard::test;

namespace {

constexpr int kMinuteMs = 1000; // --idle-minute-ms: idlePauseMinutes 1 pauses after 1 s unused

QDateTime endAtOf(const QJsonObject& info)
{
    return QDateTime::fromString(info.value("endAt").toString(), Qt::ISODateWithMs);
}

} // namespace

class TestLifecyclePolicies : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    SandboxApi m_api{m_server};
    QString m_kept;  // onTimeout pause, a long deadline: its policy must survive a restart
    QString m_idler; // idlePauseMinutes 1

    QString lifecycleOf(const QString& id, const QString& field)
    {
        const QJsonValue v = m_api.info(id).value(field);
        return v.isNull() ? QStringLiteral("null") : v.toVariant().toString();
    }
    bool waitPausedBy(const QString& id, const QString& by, int ms = 20000)
    {
        return waitUntil(
            [&] { return m_api.status(id) == "paused" && lifecycleOf(id, "pausedBy") == by; }, ms,
            100);
    }
    QByteArray systemLog(const QString& id)
    {
        return m_server.request("GET", "/api/sandboxes/" + id + "/logs?follow=false&tail=1000")
            .body;
    }
    QJsonObject lastActivity(const QString& id, const QString& kind)
    {
        const auto r = m_server.request("GET", "/api/sandboxes/" + id + "/activity?limit=10000");
        QJsonObject last;
        for (const QJsonValue& v : jsonObject(r).value("entries").toArray())
            if (v.toObject().value("kind").toString() == kind)
                last = v.toObject();
        return last;
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start({"--idle-minute-ms", QString::number(kMinuteMs)}),
                 qPrintable(m_server.errorString()));
    }

    void cleanupTestCase()
    {
        for (const QString& id : {m_kept, m_idler})
            if (!id.isEmpty())
                m_api.kill(id);
    }

    void fieldsAtCreateAndPatch()
    {
        const auto r = m_server.request(
            "POST", "/api/sandboxes",
            toJson({{"timeoutMs", 600000}, {"onTimeout", "pause"}, {"idlePauseMinutes", 0}}));
        LIZ_REQUIRE_CREATED(r);
        m_kept = jsonObject(r).value("sandboxId").toString();
        const QJsonObject created = jsonObject(r);
        QCOMPARE(created.value("onTimeout").toString(), QStringLiteral("pause"));
        QCOMPARE(created.value("idlePauseMinutes").toInt(), 0);
        QVERIFY(created.value("pausedBy").isNull());
        QCOMPARE(created.value("timeoutMs").toInteger(), 600000);

        // PATCH changes what it names, GET .../lifecycle shows the policy.
        const auto patched = m_server.request("PATCH", "/api/sandboxes/" + m_kept + "/lifecycle",
                                              toJson({{"idlePauseMinutes", 30}}));
        QVERIFY2(patched.status == 200, qPrintable(describe(patched)));
        QCOMPARE(jsonObject(patched).value("idlePauseMinutes").toInt(), 30);
        QCOMPARE(jsonObject(patched).value("onTimeout").toString(), QStringLiteral("pause"));
        const auto got = m_server.request("GET", "/api/sandboxes/" + m_kept + "/lifecycle");
        QCOMPARE(jsonObject(got).value("idlePauseMinutes").toInt(), 30);
        QVERIFY(!jsonObject(got).value("endAt").isNull());

        // Bad values are refused with the field named; nothing changes.
        for (const QJsonObject& bad :
             {QJsonObject{{"onTimeout", "sleep"}}, QJsonObject{{"onTimeout", 3}},
              QJsonObject{{"idlePauseMinutes", -1}}, QJsonObject{{"idlePauseMinutes", 10081}},
              QJsonObject{{"idlePauseMinutes", "5"}}}) {
            const auto refused =
                m_server.request("PATCH", "/api/sandboxes/" + m_kept + "/lifecycle", toJson(bad));
            QVERIFY2(isError(refused, 400, "INVALID_LIFECYCLE"), qPrintable(describe(refused)));
            const auto atCreate = m_server.request("POST", "/api/sandboxes", toJson(bad));
            QVERIFY2(isError(atCreate, 400, "INVALID_LIFECYCLE"), qPrintable(describe(atCreate)));
        }
        QCOMPARE(lifecycleOf(m_kept, "idlePauseMinutes"), QStringLiteral("30"));
        QVERIFY(isError(m_server.request("GET", "/api/sandboxes/sb_nosuchsandbox00/lifecycle"), 404,
                        "NOT_FOUND"));
    }

    void deadlinePauseKeepsFilesAndMemory()
    {
        const auto r = m_server.request("POST", "/api/sandboxes",
                                        toJson({{"timeoutMs", 60000}, {"onTimeout", "pause"}}));
        LIZ_REQUIRE_CREATED(r);
        const QString id = jsonObject(r).value("sandboxId").toString();
        // A shell that counts in its own memory (as in tst_api_lifecycle), and a file.
        const QString pid = m_api
                                .run(id, "nohup bash -c 'n=0; while :; do n=$((n+1)); echo $n > "
                                         "/tmp/c.new; mv /tmp/c.new /tmp/counter; sleep 0.02; "
                                         "done' >/dev/null 2>&1 & echo $!")
                                .trimmed();
        QVERIFY2(pid.toInt() > 0, qPrintable(pid));
        QCOMPARE(m_api.write(id, "/tmp/keep.txt", "kept"), 204);
        QTRY_VERIFY_WITH_TIMEOUT(m_api.run(id, "cat /tmp/counter").trimmed().toInt() > 3, 15000);
        const int before = m_api.run(id, "cat /tmp/counter").trimmed().toInt();

        // The deadline comes: paused, not killed, with no deadline while paused.
        QCOMPARE(
            m_server
                .request("POST", "/api/sandboxes/" + id + "/timeout", toJson({{"timeoutMs", 1500}}))
                .status,
            204);
        QVERIFY2(waitPausedBy(id, "timeout"),
                 qPrintable(describe(m_server.request("GET", "/api/sandboxes/" + id))));
        QCOMPARE(lifecycleOf(id, "endAt"), QStringLiteral("null"));
        QCOMPARE(lifecycleOf(id, "timeoutMs"), QStringLiteral("1500"));
        QVERIFY(systemLog(id).contains("paused: its timeout passed (onTimeout pause)"));
        // The activity log is written by its own thread: the entry comes a moment later.
        QTRY_COMPARE(lastActivity(id, "pause").value("reason").toString(),
                     QStringLiteral("timeout"));

        // A resume starts the lifetime again, and that deadline pauses it again.
        const QDateTime resumedAt = QDateTime::currentDateTimeUtc();
        QCOMPARE(m_api.post(id, "resume"), 204);
        const QDateTime endAt = endAtOf(m_api.info(id));
        QVERIFY2(endAt.isValid() && endAt >= resumedAt.addMSecs(1000) &&
                     endAt <= QDateTime::currentDateTimeUtc().addMSecs(1600),
                 qPrintable(lifecycleOf(id, "endAt")));
        QVERIFY(waitPausedBy(id, "timeout"));

        // Extended while paused: it stays paused, with the new deadline.
        QCOMPARE(m_server
                     .request("POST", "/api/sandboxes/" + id + "/timeout",
                              toJson({{"timeoutMs", 60000}}))
                     .status,
                 204);
        QCOMPARE(m_api.status(id), QStringLiteral("paused"));
        const QDateTime extended = endAtOf(m_api.info(id));
        QVERIFY(extended > QDateTime::currentDateTimeUtc().addSecs(50));

        // The next exec resumes it: the same process, its count went on from its memory, the
        // file is there; the deadline is the one given.
        QElapsedTimer t;
        t.start();
        const QString after = m_api.run(id, "cat /tmp/keep.txt; echo; pgrep -o -f 'n=[0]'; cat "
                                            "/tmp/counter");
        qInfo() << "exec on a sandbox paused at its deadline answered in" << t.elapsed() << "ms";
        const QStringList lines = after.split('\n', Qt::SkipEmptyParts);
        QVERIFY2(lines.size() == 3, qPrintable(after));
        QCOMPARE(lines[0], QStringLiteral("kept"));
        QCOMPARE(lines[1], pid);
        QVERIFY2(lines[2].toInt() >= before, qPrintable(after));
        QCOMPARE(m_api.status(id), QStringLiteral("running"));
        QCOMPARE(endAtOf(m_api.info(id)), extended);
        QVERIFY(systemLog(id).contains("resumed on demand by exec (paused by its timeout)"));
        m_api.kill(id);
    }

    void idlePausesAndExecResumes()
    {
        const auto r =
            m_server.request("POST", "/api/sandboxes", toJson({{"idlePauseMinutes", 1}}));
        LIZ_REQUIRE_CREATED(r);
        m_idler = jsonObject(r).value("sandboxId").toString();
        QVERIFY(waitPausedBy(m_idler, "idle"));
        QVERIFY(systemLog(m_idler).contains("paused: unused for 1 minute (idlePauseMinutes)"));
        QTRY_COMPARE(lastActivity(m_idler, "pause").value("reason").toString(),
                     QStringLiteral("idle"));

        QElapsedTimer t;
        t.start();
        const auto e = m_api.exec(m_idler, "echo awake");
        const qint64 waited = t.elapsed();
        QVERIFY2(e.status == 200, qPrintable(describe(e)));
        QCOMPARE(jsonObject(e).value("stdout").toString(), QStringLiteral("awake\n"));
        qInfo() << "exec on an idle-paused sandbox answered in" << waited << "ms";
        QTRY_COMPARE(lastActivity(m_idler, "resume").value("reason").toString(),
                     QStringLiteral("demand"));
        const QJsonObject resumed = lastActivity(m_idler, "resume");
        QCOMPARE(resumed.value("trigger").toString(), QStringLiteral("exec"));
        QCOMPARE(resumed.value("pausedBy").toString(), QStringLiteral("idle"));
        qInfo() << "of which the resume (queue and thaw):" << resumed.value("waitedMs").toInteger()
                << "ms";
        QVERIFY(
            systemLog(m_idler).contains("resumed on demand by exec (paused by its idle policy)"));
        // Unused again, it pauses again.
        QVERIFY(waitPausedBy(m_idler, "idle"));
    }

    void callInFlightIsNotIdleness()
    {
        // Three idle minutes long; it wakes the sandbox first.
        const auto e = m_api.exec(m_idler, "sleep 3; echo done");
        QVERIFY2(e.status == 200, qPrintable(describe(e)));
        QCOMPARE(jsonObject(e).value("stdout").toString(), QStringLiteral("done\n"));
        QCOMPARE(jsonObject(e).value("exitCode").toInt(), 0);
        QVERIFY(waitPausedBy(m_idler, "idle"));
    }

    void portRequestResumes()
    {
        QString why;
        QVERIFY2(startSandboxServer(m_server, m_idler, 8000, &why), qPrintable(why));
        const Exposed exposed = expose(m_server, m_idler, 8000, &why);
        QVERIFY2(!exposed.token.isEmpty(), qPrintable(why));
        QVERIFY(waitUntilServing(exposed));
        QVERIFY(waitPausedBy(m_idler, "idle"));

        QElapsedTimer t;
        t.start();
        const RawResponse answer =
            proxyRequest(exposed.hostname, "GET", "/woken", {tokenHeader(exposed.token)});
        qInfo() << "a request to an exposed port of an idle-paused sandbox answered in"
                << t.elapsed() << "ms";
        QVERIFY2(answer.status == 200, qPrintable(answer.error + answer.body));
        QVERIFY(answer.body.contains("\"/woken\""));
        QTRY_COMPARE(lastActivity(m_idler, "resume").value("trigger").toString(),
                     QStringLiteral("port 8000"));
        QVERIFY(systemLog(m_idler).contains("resumed on demand by port 8000"));
    }

    void userPauseIsNotUndone()
    {
        QCOMPARE(m_api.run(m_idler, "echo up").trimmed(), QStringLiteral("up"));
        QCOMPARE(m_api.post(m_idler, "pause"), 204);
        QCOMPARE(lifecycleOf(m_idler, "pausedBy"), QStringLiteral("user"));
        QVERIFY(isError(m_api.exec(m_idler, "true"), 409, "SANDBOX_PAUSED"));
        const Exposed exposed = expose(m_server, m_idler, 8000);
        const RawResponse viaProxy =
            proxyRequest(exposed.hostname, "GET", "/", {tokenHeader(exposed.token)});
        QCOMPARE(viaProxy.status, 409);
        QCOMPARE(m_api.status(m_idler), QStringLiteral("paused"));

        // The user's pause of a sandbox its idle policy paused makes it the user's.
        QCOMPARE(m_api.post(m_idler, "resume"), 204);
        QVERIFY(waitPausedBy(m_idler, "idle"));
        QCOMPARE(m_api.post(m_idler, "pause"), 204);
        QCOMPARE(lifecycleOf(m_idler, "pausedBy"), QStringLiteral("user"));
        QVERIFY(isError(m_api.exec(m_idler, "true"), 409, "SANDBOX_PAUSED"));
        QCOMPARE(m_api.post(m_idler, "resume"), 204);
        QCOMPARE(m_api.status(m_idler), QStringLiteral("running"));
    }

    void restartKeepsPolicies()
    {
        if (m_kept.isEmpty() || m_idler.isEmpty())
            QSKIP("no sandboxes from the cases before");
        QVERIFY(waitPausedBy(m_idler, "idle"));
        QVERIFY2(m_server.restart(), qPrintable(m_server.errorString()));
        QCOMPARE(lifecycleOf(m_kept, "onTimeout"), QStringLiteral("pause"));
        QCOMPARE(lifecycleOf(m_kept, "idlePauseMinutes"), QStringLiteral("30"));
        QCOMPARE(lifecycleOf(m_kept, "timeoutMs"), QStringLiteral("600000"));
        QCOMPARE(lifecycleOf(m_idler, "pausedBy"), QStringLiteral("idle"));
        QCOMPARE(lifecycleOf(m_idler, "idlePauseMinutes"), QStringLiteral("1"));
        // Still woken on demand by the new lizard-local.
        QCOMPARE(m_api.run(m_idler, "echo again").trimmed(), QStringLiteral("again"));
        QCOMPARE(m_api.status(m_idler), QStringLiteral("running"));
    }
};

QTEST_GUILESS_MAIN(TestLifecyclePolicies)
#include "tst_lifecycle_policies.moc"
