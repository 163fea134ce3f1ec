// Schedules without a server: cron parsing, time zones read from tzdata (transitions and the
// POSIX rule past them) and the next run on a zone's wall clock across daylight saving changes
// (sandboxes/schedules/), the `every` texts, the bounded output of a run, and the schedules'
// rows in lizard.db (store/schedulestore.cpp) with their triggers.
#include "sandboxes/schedules/cronexpression.h"
#include "sandboxes/schedules/everyinterval.h"
#include "sandboxes/schedules/nextcronrun.h"
#include "sandboxes/schedules/posixtzrule.h"
#include "sandboxes/schedules/runoutput.h"
#include "sandboxes/schedules/timezone.h"
#include "store/store.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

using lizard::sandboxes::CronExpression;
using lizard::sandboxes::nextCronRun;
using lizard::sandboxes::TimeZone;

namespace {

std::shared_ptr<const TimeZone> zone(const char* name)
{
    auto z = TimeZone::named(name);
    return z ? *z : nullptr;
}

// The next run after `after` (UTC seconds), -1 for none.
qint64 next(const char* cron, const char* zoneName, qint64 after)
{
    auto e = CronExpression::parse(cron);
    auto z = zone(zoneName);
    if (!e || !z)
        return -2;
    const auto n = nextCronRun(*e, *z, after);
    return n ? qint64(*n) : -1;
}

// The next `count` runs after `after`, one after the other.
QList<qint64> runs(const char* cron, const char* zoneName, qint64 after, int count)
{
    QList<qint64> out;
    for (int i = 0; i < count; ++i) {
        after = next(cron, zoneName, after);
        out << after;
        if (after < 0)
            break;
    }
    return out;
}

} // namespace

class TestScheduleCron : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        if (!QFileInfo::exists("/usr/share/zoneinfo/Europe/Berlin"))
            QSKIP("no tzdata in /usr/share/zoneinfo (the Debian package tzdata)");
    }

    void parses_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("error"); // empty: valid; else the start of the message
        QTest::newRow("every 5 minutes") << "*/5 * * * *"
                                         << "";
        QTest::newRow("weekdays by name") << "0 9 * * mon-fri"
                                          << "";
        QTest::newRow("names in any case") << "0 9 * JAN,Feb MON"
                                           << "";
        QTest::newRow("lists and ranges with steps") << "0,30 8-18/2 1,15 * *"
                                                     << "";
        QTest::newRow("start and step") << "5/20 * * * *"
                                        << "";
        QTest::newRow("Sunday as 7") << "0 0 * * 7"
                                     << "";
        QTest::newRow("spaces around") << "  0   0  *  *  *  "
                                       << "";
        QTest::newRow("macro") << "@daily"
                               << "";
        QTest::newRow("four fields") << "* * * *"
                                     << "a cron expression has 5 fields";
        QTest::newRow("six fields") << "0 * * * * *"
                                    << "a cron expression has 5 fields";
        QTest::newRow("minute 60") << "60 * * * *"
                                   << "cron field minute";
        QTest::newRow("hour 24") << "0 24 * * *"
                                 << "cron field hour";
        QTest::newRow("day 0") << "0 0 0 * *"
                               << "cron field day of month";
        QTest::newRow("month 13") << "0 0 1 13 *"
                                  << "cron field month";
        QTest::newRow("weekday 8") << "0 0 * * 8"
                                   << "cron field day of week";
        QTest::newRow("step 0") << "*/0 * * * *"
                                << "cron field minute";
        QTest::newRow("backwards range") << "0 5-3 * * *"
                                         << "cron field hour";
        QTest::newRow("name in the minutes") << "mon * * * *"
                                             << "cron field minute";
        QTest::newRow("empty list item") << "1,,2 * * * *"
                                         << "cron field minute";
        QTest::newRow("reboot") << "@reboot"
                                << "unknown cron macro";
        QTest::newRow("empty") << ""
                               << "a cron expression has 5 fields";
    }

    void parses()
    {
        QFETCH(QString, text);
        QFETCH(QString, error);
        const auto e = CronExpression::parse(text.toStdString());
        if (error.isEmpty()) {
            QVERIFY2(e, e ? "" : e.error().message.c_str());
            return;
        }
        QVERIFY(!e);
        QCOMPARE(QString::fromStdString(e.error().code), QStringLiteral("INVALID_CRON"));
        QVERIFY2(QString::fromStdString(e.error().message).startsWith(error),
                 e.error().message.c_str());
    }

    void dayFieldsFollowVixieCron()
    {
        // Both day fields restricted: either matches. Friday 2025-06-13, Friday 2025-06-06,
        // Thursday 2025-06-12.
        auto both = CronExpression::parse("0 0 13 * 5");
        QVERIFY(both);
        QVERIFY(both->matchesDate(6, 13, 5));
        QVERIFY(both->matchesDate(6, 6, 5));
        QVERIFY(both->matchesDate(3, 13, 4));
        QVERIFY(!both->matchesDate(6, 12, 4));
        // A day field that begins with '*' leaves the other to decide alone (both must hold).
        auto starred = CronExpression::parse("0 0 */2 * 5");
        QVERIFY(starred);
        QVERIFY(starred->matchesDate(6, 13, 5));
        QVERIFY(!starred->matchesDate(6, 6, 5));
        QVERIFY(!starred->matchesDate(6, 13, 4));
        auto sunday = CronExpression::parse("0 0 * * 7");
        QVERIFY(sunday && sunday->matchesDate(6, 15, 0));
    }

    void nextRunInUtc()
    {
        const qint64 t = 1743249600; // 2025-03-29 12:00:00 UTC, a Saturday
        QCOMPARE(next("*/5 * * * *", "UTC", t), t + 300);
        QCOMPARE(next("*/5 * * * *", "UTC", t + 1), t + 300);
        QCOMPARE(next("0 12 * * *", "UTC", t), t + 86400);
        QCOMPARE(next("0 9 * * mon-fri", "UTC", t), t + 2 * 86400 - 3 * 3600); // Monday 09:00
        QCOMPARE(next("@hourly", "UTC", t), t + 3600);
        // February 29 comes in 2028; February 30 never.
        QCOMPARE(next("0 0 29 2 *", "UTC", 1735689600), qint64(1835395200));
        QCOMPARE(next("0 0 30 2 *", "UTC", 1735689600), qint64(-1));
    }

    void zoneOffsets()
    {
        auto berlin = zone("Europe/Berlin");
        QVERIFY(berlin);
        QCOMPARE(berlin->offsetAt(1736899200), 3600); // 2025-01-15
        QCOMPARE(berlin->offsetAt(1752537600), 7200); // 2025-07-15
        // 2100 lies past the file's table: the footer's rule speaks.
        QCOMPARE(berlin->offsetAt(4118083200), 7200);                        // 2100-07-01
        QCOMPARE(berlin->offsetAt(4102444800), 3600);                        // 2100-01-01
        QCOMPARE(zone("Australia/Sydney")->offsetAt(1736899200), 11 * 3600); // southern summer
        QCOMPARE(zone("Asia/Kolkata")->offsetAt(1736899200), 5 * 3600 + 1800);
        QCOMPARE(zone("UTC")->offsetAt(1736899200), 0);
    }

    void zoneNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("valid");
        QTest::newRow("Berlin") << "Europe/Berlin" << true;
        QTest::newRow("three parts") << "America/Argentina/Buenos_Aires" << true;
        QTest::newRow("Etc with sign") << "Etc/GMT+5" << true;
        QTest::newRow("UTC") << "UTC" << true;
        QTest::newRow("unknown") << "Europe/Atlantis" << false;
        QTest::newRow("parent") << "../../etc/passwd" << false;
        QTest::newRow("absolute") << "/etc/localtime" << false;
        QTest::newRow("a directory") << "Europe" << false;
        QTest::newRow("not tzif") << "zone.tab" << false;
        QTest::newRow("leap seconds") << "right/Europe/Berlin" << false;
        QTest::newRow("space") << "Europe/Ber lin" << false;
        QTest::newRow("empty") << "" << false;
    }

    void zoneNames()
    {
        QFETCH(QString, name);
        QFETCH(bool, valid);
        const auto z = TimeZone::named(name.toStdString());
        QCOMPARE(bool(z), valid);
        if (!valid)
            QCOMPARE(QString::fromStdString(z.error().code), QStringLiteral("INVALID_TIMEZONE"));
    }

    void posixRules()
    {
        using lizard::sandboxes::PosixTzRule;
        auto fixed = PosixTzRule::parse("<+0330>-3:30");
        QVERIFY(fixed);
        QCOMPARE(fixed->offsetAt(0), 3 * 3600 + 1800);
        QVERIFY(!fixed->nextChange(0));
        // Southern hemisphere: daylight time spans the new year.
        auto sydney = PosixTzRule::parse("AEST-10AEDT,M10.1.0,M4.1.0/3");
        QVERIFY(sydney);
        QCOMPARE(sydney->offsetAt(1736899200), 11 * 3600); // January
        QCOMPARE(sydney->offsetAt(1752537600), 10 * 3600); // July
        // Daylight time all year (start and end meet at the new year).
        auto always = PosixTzRule::parse("EST5EDT,0/0,J365/25");
        QVERIFY(always);
        QCOMPARE(always->offsetAt(1736899200), -4 * 3600);
        QCOMPARE(always->offsetAt(1752537600), -4 * 3600);
        QVERIFY(!always->nextChange(1736899200));
        // Julian days never count February 29: J60 is March 1 in any year.
        auto julian = PosixTzRule::parse("XST-1XDT,J60/0,J300/0");
        QVERIFY(julian);
        QCOMPARE(julian->nextChange(1704067200).value_or(0), qint64(1709247600)); // 2024-03-01
        QVERIFY(!PosixTzRule::parse("CET-1CEST,M13.5.0,M10.5.0/3"));
        QVERIFY(!PosixTzRule::parse("C-1"));
        QVERIFY(!PosixTzRule::parse(""));
    }

    // Clocks go forward (Berlin, 2025-03-30 02:00 CET → 03:00 CEST, 01:00 UTC): 02:30 does not
    // exist that night, and runs once at the change.
    void springForwardRunsSkippedTimeAtTheChange()
    {
        QCOMPARE(runs("30 2 * * *", "Europe/Berlin", 1743249600, 2),
                 (QList<qint64>{1743296400, 1743381000})); // 01:00 UTC, then 00:30 UTC next day
        // Every quarter hour: 01:45 CET, then 02:00–02:45 collapse into one run at 03:00 CEST.
        QCOMPARE(runs("*/15 * * * *", "Europe/Berlin", 1743295200, 3),
                 (QList<qint64>{1743295500, 1743296400, 1743297300}));
        // The same rule past the table (2100: the footer's rule; March 28, 01:00 UTC).
        QCOMPARE(next("30 2 * * *", "Europe/Berlin", 4109832000), qint64(4109878800));
        // Half an hour forward (Lord Howe, 2025-10-05 02:00 → 02:30 at +10:30).
        QCOMPARE(next("15 2 * * *", "Australia/Lord_Howe", 1759579200), qint64(1759591800));
    }

    // Clocks go back (Berlin, 2025-10-26 03:00 CEST → 02:00 CET, 01:00 UTC): 02:30 happens
    // twice. A fixed hour runs in the first pass only; an hour field of '*' runs in both.
    void fallBackRunsFixedTimesOnce()
    {
        QCOMPARE(runs("30 2 * * *", "Europe/Berlin", 1761393600, 2),
                 (QList<qint64>{1761438600, 1761528600})); // 00:30 UTC, then 01:30 UTC next day
        QCOMPARE(runs("*/30 * * * *", "Europe/Berlin", 1761436800, 4),
                 (QList<qint64>{1761438600, 1761440400, 1761442200, 1761444000}));
        // Past the table: 2100-10-31 (the last Sunday), 02:30 CEST is 00:30 UTC.
        QCOMPARE(runs("30 2 * * *", "Europe/Berlin", 4128580800, 2),
                 (QList<qint64>{4128625800, 4128715800}));
    }

    void weekdaysAcrossTheUsChange()
    {
        // New York, 2025-03-09: 09:00 is 14:00 UTC on Friday and 13:00 UTC on Monday.
        QCOMPARE(runs("0 9 * * mon-fri", "America/New_York", 1741348800, 2),
                 (QList<qint64>{1741356000, 1741611600}));
    }

    void everyTexts_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("seconds"); // 0: refused
        QTest::newRow("seconds") << "90" << qint64(90);
        QTest::newRow("90s") << "90s" << qint64(90);
        QTest::newRow("5m") << "5m" << qint64(300);
        QTest::newRow("1h30m") << "1h30m" << qint64(5400);
        QTest::newRow("2d") << "2d" << qint64(172800);
        QTest::newRow("unknown unit") << "5x" << qint64(0);
        QTest::newRow("no number") << "m" << qint64(0);
        QTest::newRow("zero") << "0s" << qint64(0);
        QTest::newRow("number after an amount") << "5m3" << qint64(0);
        QTest::newRow("over a year") << "400d" << qint64(0);
        QTest::newRow("empty") << "" << qint64(0);
    }

    void everyTexts()
    {
        QFETCH(QString, text);
        QFETCH(qint64, seconds);
        auto v = lizard::sandboxes::parseEvery(text.toStdString());
        if (seconds == 0) {
            QVERIFY(!v);
            QCOMPARE(QString::fromStdString(v.error().code), QStringLiteral("INVALID_SCHEDULE"));
            return;
        }
        QVERIFY2(v, v ? "" : v.error().message.c_str());
        QCOMPARE(qint64(*v), seconds);
        QCOMPARE(lizard::sandboxes::parseEvery(lizard::sandboxes::formatEvery(*v)).value(), *v);
    }

    void runOutputIsBounded()
    {
        using lizard::sandboxes::RunOutput;
        RunOutput small;
        small.feed("hello ");
        small.feed("world\n");
        QCOMPARE(QString::fromStdString(small.text()), QStringLiteral("hello world\n"));
        RunOutput big;
        const std::string chunk(1000, 'x');
        big.feed("BEGIN");
        for (int i = 0; i < 200; ++i)
            big.feed(chunk);
        big.feed("END");
        const std::string text = big.text();
        QVERIFY(text.size() < RunOutput::kHeadBytes + RunOutput::kTailBytes + 100);
        QVERIFY(text.rfind("BEGIN", 0) == 0);
        QVERIFY(text.size() >= 3 && text.compare(text.size() - 3, 3, "END") == 0);
        QVERIFY(text.find("bytes of output left out") != std::string::npos);
        QCOMPARE(big.bytes(), uint64_t(5 + 200 * 1000 + 3));
    }

    // The rows: written through, and gone with their sandbox (the schema's triggers).
    void storeRowsGoWithTheSandbox()
    {
        QTemporaryDir dir;
        auto store = lizard::store::Store::open((dir.path() + "/lizard.db").toStdString());
        QVERIFY(store);
        auto project = (*store)->createProject("p");
        QVERIFY(project);
        lizard::store::SandboxRecord sb;
        sb.id = "sb_one";
        sb.projectId = project->id;
        sb.templateName = "base";
        sb.size = "small";
        QVERIFY((*store)->insertSandbox(sb));
        auto& schedules = (*store)->schedules();
        lizard::store::ScheduleRecord s;
        s.id = "sch_one";
        s.sandboxId = sb.id;
        s.every = "5m";
        s.everySeconds = 300;
        s.command = "date";
        QVERIFY(schedules.insert(s));
        s.skippedCount = 3;
        QVERIFY(schedules.update(s));
        lizard::store::ScheduleRunRecord run;
        run.id = "schrun_one";
        run.scheduleId = s.id;
        run.sandboxId = sb.id;
        run.startedAtMs = 1000;
        QVERIFY(schedules.insertRun(run));
        for (int i = 0; i < 5; ++i) {
            lizard::store::ScheduleRunRecord older = run;
            older.id = "schrun_old" + std::to_string(i);
            older.startedAtMs = 100 + i;
            older.status = "succeeded";
            older.endedAtMs = 200 + i;
            older.exitCode = 0;
            QVERIFY(schedules.insertRun(older));
        }
        QVERIFY(schedules.pruneRuns(s.id, 3));
        auto kept = schedules.runs(s.id, 10);
        QVERIFY(kept);
        QCOMPARE(kept->size(), size_t(3));
        QCOMPARE(QString::fromStdString(kept->front().id), QStringLiteral("schrun_one"));
        QVERIFY(!kept->front().exitCode);
        QCOMPARE(kept->at(1).exitCode.value_or(-1), 0);
        // A server that stopped during the run: interrupted at the next start.
        auto interrupted = schedules.interruptUnfinished(5000);
        QVERIFY(interrupted);
        QCOMPARE(interrupted->size(), size_t(1));
        QCOMPARE(QString::fromStdString(schedules.runs(s.id, 1)->front().status),
                 QStringLiteral("interrupted"));
        QCOMPARE(schedules.all()->front().skippedCount, int64_t(3));
        // The sandbox stops: its schedule and runs go, and nothing brings them back.
        QVERIFY((*store)->markStopped(sb.id, "killed"));
        QVERIFY(schedules.all()->empty());
        QVERIFY(schedules.runs(s.id, 10)->empty());
        QCOMPARE(schedules.update(s).error().kind, lizard::ErrorKind::NotFound);
        QVERIFY(schedules.insertRun(run));
        QVERIFY(schedules.runs(s.id, 10)->empty());
    }
};

QTEST_GUILESS_MAIN(TestScheduleCron)
#include "tst_schedule_cron.moc"
