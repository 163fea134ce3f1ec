// The schedule answers and bodies (client/jsonmapping_schedules.cpp) and the times the Schedules
// tab shows (models/schedules/scheduletime.h): lizard-local's SandboxSchedule and
// SandboxScheduleRun shapes, nulls where a schedule has no cron or a run has not ended, a field
// of the wrong type refused; the bodies the Add and Edit dialogs send.
#include "client/jsonmapping.h"
#include "models/schedules/scheduletime.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace lizard::client;
using namespace lizard::models;

namespace {

QJsonObject scheduleMappingJson(const QByteArray& body)
{
    return QJsonDocument::fromJson(body).object();
}

} // namespace

class TestScheduleMapping : public QObject
{
    Q_OBJECT
private slots:
    void everySchedule()
    {
        const auto o = parseSchedule(
            R"({"id":"sch_a","sandboxId":"sb1","name":null,"every":"5m","everySeconds":300,)"
            R"("cron":null,"timezone":"UTC","kind":"command","prompt":null,"command":"date",)"
            R"("timeoutSeconds":600,"keepMemory":true,"enabled":true,"disabledReason":null,)"
            R"("nextRunAt":"2026-12-05T10:05:00.000Z","running":false,"lastRunAt":null,)"
            R"("lastStatus":null,"consecutiveFailures":0,"skippedCount":3,)"
            R"("createdAt":"2026-12-05T10:00:00.000Z"})");
        QVERIFY2(o.ok(), qPrintable(o.ok() ? QString() : o.error().toDisplayString()));
        const SandboxSchedule& s = o.value();
        QCOMPARE(s.id, QStringLiteral("sch_a"));
        QCOMPARE(s.every, QStringLiteral("5m"));
        QCOMPARE(s.everySeconds, qint64(300));
        QVERIFY(s.cron.isEmpty() && s.name.isEmpty() && s.lastStatus.isEmpty());
        QCOMPARE(s.nextRunAt, QDateTime(QDate(2026, 12, 5), QTime(10, 5), Qt::UTC));
        QVERIFY(!s.lastRunAt.isValid());
        QCOMPARE(s.skippedCount, qint64(3));
        QCOMPARE(s.timeoutSeconds, 600);
    }

    void listsAndRuns()
    {
        const auto list = parseSchedules(
            R"({"schedules":[{"id":"a","cron":"0 9 * * *","timezone":"Europe/Berlin",)"
            R"("enabled":false,"disabledReason":"switched off","nextRunAt":null}]})");
        QVERIFY(list.ok());
        QCOMPARE(list.value().size(), 1);
        QCOMPARE(list.value().first().cron, QStringLiteral("0 9 * * *"));
        QVERIFY(!list.value().first().enabled);
        QVERIFY(!list.value().first().nextRunAt.isValid());
        const auto runs = parseScheduleRuns(
            R"({"runs":[{"id":"r2","status":"running","finished":false,"endedAt":null,)"
            R"("durationMs":null,"exitCode":null,"output":null,"woke":true},)"
            R"({"id":"r1","status":"failed","finished":true,"durationMs":1200,"exitCode":3,)"
            R"("output":"oops\n","error":null,"woke":false,"slept":false}]})");
        QVERIFY(runs.ok());
        const ScheduleRun& running = runs.value().at(0);
        QVERIFY(!running.finished && running.woke && !running.exitCode);
        QCOMPARE(running.durationMs, qint64(-1));
        const ScheduleRun& failed = runs.value().at(1);
        QCOMPARE(failed.exitCode, std::optional<int>(3));
        QCOMPARE(failed.output, QStringLiteral("oops\n"));
        QCOMPARE(failed.durationMs, qint64(1200));
    }

    void wrongShapesAreRefused()
    {
        QVERIFY(!parseSchedule(R"({"every":"5m"})").ok()); // no id
        QVERIFY(!parseSchedule(R"({"id":"a","enabled":"yes"})").ok());
        QVERIFY(!parseSchedules(R"({"items":[]})").ok());
        QCOMPARE(parseScheduleRuns("not json").error().kind, ApiError::Kind::Protocol);
    }

    void bodies()
    {
        ScheduleSpec every;
        every.every = QStringLiteral("90");
        every.command = QStringLiteral("date");
        QJsonObject j = scheduleMappingJson(scheduleBody(every));
        QCOMPARE(j.value("every").toInt(), 90); // digits alone: seconds, as the SDK sends them
        QVERIFY(j.value("name").isNull());
        QVERIFY(!j.contains("cron") && !j.contains("timezone") && !j.contains("timeoutSeconds"));
        every.every = QStringLiteral(" 1h30m ");
        every.name = QStringLiteral(" nightly ");
        every.timeoutSeconds = 30;
        j = scheduleMappingJson(scheduleBody(every));
        QCOMPARE(j.value("every").toString(), QStringLiteral("1h30m"));
        QCOMPARE(j.value("name").toString(), QStringLiteral("nightly"));
        QCOMPARE(j.value("timeoutSeconds").toInt(), 30);

        ScheduleSpec cron;
        cron.cron = QStringLiteral("0  9 * *   1-5");
        cron.command = QStringLiteral("echo hi\nexit 0");
        j = scheduleMappingJson(scheduleBody(cron));
        QCOMPARE(j.value("cron").toString(), QStringLiteral("0 9 * * 1-5"));
        QCOMPARE(j.value("timezone").toString(), QStringLiteral("UTC"));
        QCOMPARE(j.value("command").toString(), QStringLiteral("echo hi\nexit 0"));
        QVERIFY(!j.contains("every"));
        QCOMPARE(scheduleMappingJson(enabledBody(false)).value("enabled"), QJsonValue(false));
    }

    void times()
    {
        const QDateTime now(QDate(2026, 12, 5), QTime(10, 0), Qt::UTC);
        QCOMPARE(formatRelativeTime(now.addMSecs(400), now), QStringLiteral("now"));
        QCOMPARE(formatRelativeTime(now.addMSecs(1500), now), QStringLiteral("in 2 s"));
        QCOMPARE(formatRelativeTime(now.addSecs(3599), now), QStringLiteral("in 59 min"));
        QCOMPARE(formatRelativeTime(now.addSecs(3600 + 300), now), QStringLiteral("in 1 h 5 min"));
        QCOMPARE(formatRelativeTime(now.addDays(3), now), QStringLiteral("in 3 d"));
        QCOMPARE(formatRelativeTime(now.addSecs(-125), now), QStringLiteral("2 min ago"));
        QCOMPARE(formatScheduleDuration(850), QStringLiteral("850 ms"));
        QCOMPARE(formatScheduleDuration(2400), QStringLiteral("2.4 s"));
        QCOMPARE(formatScheduleDuration(200000), QStringLiteral("3 min 20 s"));
        QCOMPARE(formatScheduleSeconds(5400), QStringLiteral("1h30m"));
        QCOMPARE(formatScheduleSeconds(90), QStringLiteral("1m30s"));
        QCOMPARE(formatScheduleSeconds(172800), QStringLiteral("2d"));
    }
};

QTEST_GUILESS_MAIN(TestScheduleMapping)
#include "tst_schedulemapping.moc"
