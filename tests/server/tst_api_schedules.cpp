// Schedules through the API of a real lizard-local (started with --schedule-min-interval 1 so
// that intervals of seconds are allowed): a schedule every 2 s wakes a paused sandbox, runs and
// puts it back to sleep; runs never overlap (the skipped ones are counted); a restart keeps the
// schedule, counts the due time it missed as skipped and ends a run it cut short as
// interrupted, its sandbox asleep again; timeouts, five failures in a row switching a schedule
// off, deleting a schedule during its run, the bound per sandbox, what each run leaves in the
// system log and the activity log, and a schedule going with its sandbox. The SDK's view of the
// same routes: tests/compat's schedules.
#include "lifecycle_support.h"

#include <QDateTime>
#include <QFile>

using lizard::test::describe;
using lizard::test::isError;
using lizard::test::jsonObject;
using lizard::test::LocalServer;
using lizard::test::SandboxApi;
using lizard::test::toJson;

namespace {

qint64 msOf(const QJsonValue& iso)
{
    return QDateTime::fromString(iso.toString(), Qt::ISODateWithMs).toMSecsSinceEpoch();
}

} // namespace

class TestApiSchedules : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    SandboxApi m_api{m_server};
    QString m_id; // a sandbox the tests share; paused or running as each needs

    LocalServer::Response create(const QJsonObject& body, const QString& sandbox = {})
    {
        return m_server.request(
            "POST", "/api/sandboxes/" + (sandbox.isEmpty() ? m_id : sandbox) + "/schedules",
            toJson(body));
    }
    QString createId(const QJsonObject& body)
    {
        const auto r = create(body);
        if (r.status != 200)
            qWarning().noquote() << describe(r);
        return jsonObject(r).value("id").toString();
    }
    QJsonObject schedule(const QString& id)
    {
        return jsonObject(m_server.request("GET", "/api/sandbox-schedules/" + id));
    }
    QJsonArray runs(const QString& id)
    {
        return jsonObject(
                   m_server.request("GET", "/api/sandbox-schedules/" + id + "/runs?limit=100"))
            .value("runs")
            .toArray();
    }
    int finishedRuns(const QString& id)
    {
        int n = 0;
        for (const auto& r : runs(id))
            n += r.toObject().value("finished").toBool() ? 1 : 0;
        return n;
    }
    void remove(const QString& id) { m_server.request("DELETE", "/api/sandbox-schedules/" + id); }
    void pause()
    {
        QCOMPARE(m_api.post(m_id, "pause"), 204);
        QCOMPARE(m_api.status(m_id), QStringLiteral("paused"));
    }
    void resume() { QCOMPARE(m_api.post(m_id, "resume"), 204); }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start({"--schedule-min-interval", "1"}),
                 qPrintable(m_server.errorString()));
        const auto probe = m_server.request("POST", "/api/sandboxes", "{}");
        LIZ_REQUIRE_CREATED(probe);
        m_id = jsonObject(probe).value("sandboxId").toString();
    }

    void cleanupTestCase()
    {
        if (!m_id.isEmpty())
            m_api.kill(m_id);
    }

    void init() { resume(); }

    // Whatever a failed test left: the bound per sandbox counts them.
    void cleanup()
    {
        const auto list = m_server.request("GET", "/api/sandboxes/" + m_id + "/schedules");
        for (const auto& s : jsonObject(list).value("schedules").toArray())
            remove(s.toObject().value("id").toString());
    }

    void everyTwoSecondsWakesAPausedSandbox()
    {
        pause();
        const QString id = createId({{"every", 2},
                                     {"command", "echo woke; cat /proc/1/status | "
                                                 "grep -c State"}});
        QVERIFY(!id.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(finishedRuns(id) >= 2, 20000);
        remove(id);
        const QJsonArray all = runs(id);
        QVERIFY(all.isEmpty()); // the runs went with the schedule
        // What they were, from the system log: each woke the sandbox and put it back.
        QCOMPARE(m_api.status(m_id), QStringLiteral("paused"));
        QFile file(m_server.dataDir() + "/sandboxes/" + m_id + "/system.log");
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray log = file.readAll();
        QVERIFY2(log.contains("waking the sandbox"), log.right(2000).constData());
        QVERIFY2(log.contains("succeeded after"), log.right(2000).constData());
        QVERIFY2(log.contains("the sandbox sleeps again"), log.right(2000).constData());
    }

    void runsRecordWakeAndSleep()
    {
        pause();
        const QString id = createId({{"every", 2}, {"command", "echo hello from $(hostname)"}});
        QVERIFY(!id.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(finishedRuns(id) >= 1, 20000);
        QCOMPARE(m_server.request("PATCH", "/api/sandbox-schedules/" + id, R"({"enabled":false})")
                     .status,
                 200);
        QTRY_VERIFY_WITH_TIMEOUT(!schedule(id).value("running").toBool(), 20000);
        const QJsonObject run = runs(id).last().toObject(); // the oldest
        QCOMPARE(run.value("status").toString(), QStringLiteral("succeeded"));
        QVERIFY(run.value("woke").toBool());
        QVERIFY(run.value("slept").toBool());
        QVERIFY(run.value("output").toString().startsWith("hello from "));
        QCOMPARE(run.value("exitCode").toInt(-1), 0);
        QCOMPARE(m_api.status(m_id), QStringLiteral("paused"));
        const QJsonObject s = schedule(id);
        QCOMPARE(s.value("lastStatus").toString(), QStringLiteral("succeeded"));
        QVERIFY(s.value("nextRunAt").isNull());
        // Activity: one scheduleRun entry per run, with its output.
        resume();
        const auto activity = [this] {
            return m_server.request("GET", "/api/sandboxes/" + m_id + "/activity").body;
        };
        const QByteArray ofThisSchedule = "\"scheduleId\":\"" + id.toUtf8() + "\"";
        const QByteArray aRun = "\"kind\":\"scheduleRun\"";
        QTRY_VERIFY2_WITH_TIMEOUT(activity().contains(ofThisSchedule) && activity().contains(aRun),
                                  activity().right(1500).constData(), 10000);
        remove(id);
    }

    void runsNeverOverlap()
    {
        // Due every second, each run takes 2.5 s: the due times in between are skipped.
        const QString id = createId({{"every", 1}, {"command", "sleep 2.5"}});
        QVERIFY(!id.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(finishedRuns(id) >= 2, 30000);
        QCOMPARE(m_server.request("PATCH", "/api/sandbox-schedules/" + id, R"({"enabled":false})")
                     .status,
                 200);
        QTRY_VERIFY_WITH_TIMEOUT(!schedule(id).value("running").toBool(), 20000);
        const QJsonArray all = runs(id); // newest first
        for (int i = 0; i + 1 < all.size(); ++i) {
            const QJsonObject newer = all.at(i).toObject();
            const QJsonObject older = all.at(i + 1).toObject();
            QVERIFY2(msOf(newer.value("startedAt")) >= msOf(older.value("endedAt")),
                     qPrintable(QJsonDocument(all).toJson()));
        }
        QVERIFY2(schedule(id).value("skippedCount").toInt() >= 2,
                 qPrintable(QJsonDocument(schedule(id)).toJson()));
        remove(id);
    }

    void timeoutEndsARun()
    {
        const QString id = createId(
            {{"every", "1h"}, {"command", "echo started; sleep 30"}, {"timeoutSeconds", 1}});
        QCOMPARE(m_server.request("POST", "/api/sandbox-schedules/" + id + "/run").status, 200);
        QTRY_VERIFY_WITH_TIMEOUT(finishedRuns(id) == 1, 20000);
        const QJsonObject run = runs(id).first().toObject();
        QCOMPARE(run.value("status").toString(), QStringLiteral("timeout"));
        QCOMPARE(run.value("output").toString(), QStringLiteral("started\n"));
        QVERIFY(run.value("error").toString().contains("timeout"));
        QCOMPARE(schedule(id).value("consecutiveFailures").toInt(), 1);
        remove(id);
    }

    void fiveFailuresInARowSwitchItOff()
    {
        const QString id = createId({{"every", "1h"}, {"command", "exit 2"}});
        for (int i = 1; i <= 5; ++i) {
            const auto r = m_server.request("POST", "/api/sandbox-schedules/" + id + "/run");
            QVERIFY2(r.status == 200, qPrintable(describe(r)));
            QTRY_VERIFY_WITH_TIMEOUT(
                finishedRuns(id) == i && !schedule(id).value("running").toBool(), 20000);
        }
        const QJsonObject off = schedule(id);
        QCOMPARE(off.value("enabled").toBool(), false);
        QCOMPARE(off.value("consecutiveFailures").toInt(), 5);
        QVERIFY2(off.value("disabledReason").toString().contains("5 failed runs in a row"),
                 qPrintable(off.value("disabledReason").toString()));
        QVERIFY(off.value("disabledReason").toString().contains("exit code 2"));
        QVERIFY(off.value("nextRunAt").isNull());
        // Switched on again: the count starts over and the reason goes.
        const auto on =
            m_server.request("PATCH", "/api/sandbox-schedules/" + id, R"({"enabled":true})");
        QCOMPARE(jsonObject(on).value("enabled").toBool(), true);
        QVERIFY(jsonObject(on).value("disabledReason").isNull());
        QCOMPARE(jsonObject(on).value("consecutiveFailures").toInt(), 0);
        remove(id);
    }

    void deletingARunningScheduleStillPutsTheSandboxToSleep()
    {
        pause();
        const QString id = createId({{"every", "1h"}, {"command", "sleep 60"}});
        QCOMPARE(m_server.request("POST", "/api/sandbox-schedules/" + id + "/run").status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(m_api.status(m_id), QStringLiteral("running"), 20000);
        QCOMPARE(m_server.request("DELETE", "/api/sandbox-schedules/" + id).status, 204);
        QTRY_COMPARE_WITH_TIMEOUT(m_api.status(m_id), QStringLiteral("paused"), 20000);
        QCOMPARE(m_server.request("GET", "/api/sandbox-schedules/" + id).status, 404);
        resume();
        // The command went with the run.
        QTRY_COMPARE_WITH_TIMEOUT(m_api.run(m_id, "pgrep -c -f 'sleep 6[0]' || true").trimmed(),
                                  QStringLiteral("0"), 10000);
    }

    void boundedPerSandbox()
    {
        QStringList ids;
        for (int i = 0; i < 20; ++i) {
            const QString id = createId({{"every", "1h"}, {"command", "true"}});
            QVERIFY(!id.isEmpty());
            ids << id;
        }
        const auto r = create({{"every", "1h"}, {"command", "true"}});
        QVERIFY2(isError(r, 429, "LIMIT_EXCEEDED"), qPrintable(describe(r)));
        QCOMPARE(jsonObject(r).value("limit").toInt(), 20);
        QCOMPARE(jsonObject(r).value("unit").toString(), QStringLiteral("schedules"));
        for (const QString& id : ids)
            remove(id);
        QVERIFY(jsonObject(m_server.request("GET", "/api/sandboxes/" + m_id + "/schedules"))
                    .value("schedules")
                    .toArray()
                    .isEmpty());
    }

    void badRequests_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("code");
        QTest::newRow("prompt") << QByteArray(R"({"every":"5m","prompt":"research"})")
                                << "PROMPT_SCHEDULES_CLOUD_ONLY";
        QTest::newRow("both") << QByteArray(R"({"every":"5m","cron":"* * * * *","command":"x"})")
                              << "INVALID_SCHEDULE";
        QTest::newRow("neither") << QByteArray(R"({"command":"x"})") << "INVALID_SCHEDULE";
        QTest::newRow("no command") << QByteArray(R"({"every":"5m"})") << "INVALID_SCHEDULE";
        QTest::newRow("bad every")
            << QByteArray(R"({"every":"5 minutes","command":"x"})") << "INVALID_SCHEDULE";
        QTest::newRow("every as a bool")
            << QByteArray(R"({"every":true,"command":"x"})") << "INVALID_SCHEDULE";
        QTest::newRow("bad cron") << QByteArray(R"({"cron":"61 * * * *","command":"x"})")
                                  << "INVALID_CRON";
        QTest::newRow("never") << QByteArray(R"({"cron":"0 0 30 2 *","command":"x"})")
                               << "INVALID_CRON";
        QTest::newRow("zone") << QByteArray(R"({"cron":"0 9 * * *","timezone":"Mars/Olympus",)"
                                            R"("command":"x"})")
                              << "INVALID_TIMEZONE";
        QTest::newRow("zone path") << QByteArray(R"({"cron":"0 9 * * *","timezone":"../../etc/)"
                                                 R"(passwd","command":"x"})")
                                   << "INVALID_TIMEZONE";
        QTest::newRow("timeout") << QByteArray(R"({"every":"5m","command":"x","timeoutSeconds":)"
                                               R"(90000})")
                                 << "INVALID_ARGUMENT";
        QTest::newRow("not json") << QByteArray("{") << "INVALID_JSON";
    }

    void badRequests()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, code);
        const auto r = m_server.request("POST", "/api/sandboxes/" + m_id + "/schedules", body);
        QVERIFY2(isError(r, 400, code), qPrintable(describe(r)));
        if (code == "PROMPT_SCHEDULES_CLOUD_ONLY")
            QVERIFY(jsonObject(r).value("message").toString().contains(
                "prompt schedules run only on the Lizard cloud"));
    }

    void goneWithTheSandbox()
    {
        const auto made = m_server.request("POST", "/api/sandboxes", "{}");
        LIZ_REQUIRE_CREATED(made);
        const QString other = jsonObject(made).value("sandboxId").toString();
        const auto r = create({{"every", "1h"}, {"command", "echo ran"}}, other);
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        const QString id = jsonObject(r).value("id").toString();
        QCOMPARE(m_server.request("POST", "/api/sandbox-schedules/" + id + "/run").status, 200);
        QTRY_VERIFY_WITH_TIMEOUT(finishedRuns(id) == 1, 20000);
        m_api.kill(other);
        QCOMPARE(m_server.request("GET", "/api/sandbox-schedules/" + id).status, 404);
        QCOMPARE(m_server.request("GET", "/api/sandbox-schedules/" + id + "/runs").status, 404);
        QCOMPARE(m_server.request("POST", "/api/sandbox-schedules/" + id + "/run").status, 404);
        const QByteArray all = m_server.request("GET", "/api/sandbox-schedules").body;
        QVERIFY2(!all.contains(id.toUtf8()), all.constData());
    }

    // Last: restarts the server. A due time passes while it is down (skipped, not run late),
    // and a run it cut short is interrupted, its sandbox asleep again.
    void restartKeepsSchedulesAndSkipsMissedRuns()
    {
        pause();
        const QString ticking =
            createId({{"every", 2}, {"command", "echo tick"}, {"name", "tick"}});
        QTRY_VERIFY_WITH_TIMEOUT(finishedRuns(ticking) >= 1, 20000);
        QCOMPARE(m_server.request("PATCH", "/api/sandbox-schedules/" + ticking, R"({"every":"1h"})")
                     .status,
                 200);
        QTRY_VERIFY_WITH_TIMEOUT(!schedule(ticking).value("running").toBool(), 20000);
        const QString slow = createId({{"every", "1h"}, {"command", "sleep 60"}});
        QCOMPARE(m_server.request("POST", "/api/sandbox-schedules/" + slow + "/run").status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(m_api.status(m_id), QStringLiteral("running"), 20000);
        // A due time 2 s ahead, which the server will not be there for.
        QCOMPARE(
            m_server.request("PATCH", "/api/sandbox-schedules/" + ticking, R"({"every":2})").status,
            200);
        const qint64 due = msOf(schedule(ticking).value("nextRunAt"));
        const int runsBefore = runs(ticking).size();
        m_server.stop();
        const qint64 wait = due + 500 - QDateTime::currentMSecsSinceEpoch();
        if (wait > 0)
            QTest::qWait(int(wait)); // the missed due time is a time, not an event
        QVERIFY2(m_server.restart(), qPrintable(m_server.errorString()));

        const QJsonObject kept = schedule(ticking);
        QCOMPARE(kept.value("name").toString(), QStringLiteral("tick"));
        QVERIFY2(kept.value("skippedCount").toInt() >= 1, qPrintable(QJsonDocument(kept).toJson()));
        QCOMPARE(runs(ticking).size(), runsBefore); // nothing ran for the missed time
        QVERIFY(msOf(kept.value("nextRunAt")) > due);
        const QJsonObject cut = runs(slow).first().toObject();
        QCOMPARE(cut.value("status").toString(), QStringLiteral("interrupted"));
        QVERIFY(cut.value("woke").toBool());
        QTRY_COMPARE_WITH_TIMEOUT(m_api.status(m_id), QStringLiteral("paused"), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(runs(slow).first().toObject().value("slept").toBool(), 10000);
        QCOMPARE(schedule(slow).value("lastStatus").toString(), QStringLiteral("interrupted"));
        // And the schedule goes on after the restart.
        QTRY_VERIFY_WITH_TIMEOUT(finishedRuns(ticking) > runsBefore, 20000);
        remove(ticking);
        remove(slow);
    }
};

QTEST_GUILESS_MAIN(TestApiSchedules)
#include "tst_api_schedules.moc"
