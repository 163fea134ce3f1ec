// formatTimeLeft / formatStarted / formatAgo / formatAbsolute: what the sandbox table shows.
#include "models/timeformat.h"

#include <QTest>

using lizard::models::formatAbsolute;
using lizard::models::formatAgo;
using lizard::models::formatStarted;
using lizard::models::formatTimeLeft;

class TestTimeFormat : public QObject
{
    Q_OBJECT
private slots:
    void timeLeft_data()
    {
        QTest::addColumn<qint64>("secondsLeft");
        QTest::addColumn<QString>("expected");
        QTest::newRow("one second") << qint64(1) << "0:01";
        QTest::newRow("five minutes") << qint64(300) << "5:00";
        QTest::newRow("just under an hour") << qint64(3599) << "59:59";
        QTest::newRow("an hour") << qint64(3600) << "1:00:00";
        QTest::newRow("hours") << qint64(3 * 3600 + 62) << "3:01:02";
        QTest::newRow("days") << qint64(2 * 86400 + 3 * 3600 + 4 * 60 + 5) << "2d 03:04:05";
        QTest::newRow("now") << qint64(0) << "expired";
        QTest::newRow("past") << qint64(-30) << "expired";
    }
    void timeLeft()
    {
        QFETCH(qint64, secondsLeft);
        QFETCH(QString, expected);
        const QDateTime now = QDateTime::fromString("2026-01-02T03:04:05Z", Qt::ISODate);
        QCOMPARE(formatTimeLeft(now.addSecs(secondsLeft), now), expected);
    }
    void ago_data()
    {
        QTest::addColumn<qint64>("secondsAgo");
        QTest::addColumn<QString>("expected");
        QTest::newRow("now") << qint64(0) << "just now";
        QTest::newRow("a clock ahead") << qint64(-3) << "just now";
        QTest::newRow("seconds") << qint64(42) << "42 s ago";
        QTest::newRow("minutes") << qint64(5 * 60 + 59) << "5 min ago";
        QTest::newRow("an hour") << qint64(3600) << "1 h ago";
        QTest::newRow("hours") << qint64(3 * 3600 + 12 * 60) << "3 h 12 min ago";
        QTest::newRow("a day") << qint64(86400 + 5) << "1 day ago";
        QTest::newRow("days") << qint64(3 * 86400) << "3 days ago";
    }
    void ago()
    {
        QFETCH(qint64, secondsAgo);
        QFETCH(QString, expected);
        const QDateTime now = QDateTime::fromString("2026-01-02T03:04:05Z", Qt::ISODate);
        QCOMPARE(formatAgo(now.addSecs(-secondsAgo), now), expected);
        QCOMPARE(formatAgo(QDateTime(), now), QString());
    }
    void absolute()
    {
        const QDateTime t = QDateTime::fromString("2026-01-02T03:04:05Z", Qt::ISODate);
        QCOMPARE(formatAbsolute(t), t.toLocalTime().toString("yyyy-MM-dd hh:mm:ss"));
        QCOMPARE(formatAbsolute(QDateTime()), QString());
    }
    void noDeadline()
    {
        QCOMPARE(formatTimeLeft(QDateTime(), QDateTime::currentDateTimeUtc()), "no limit");
    }

    void started()
    {
        const QDateTime now = QDateTime::currentDateTime();
        const QDateTime today = now.addSecs(-5);
        QCOMPARE(formatStarted(today, now), today.toString("hh:mm:ss"));
        const QDateTime old = now.addDays(-40);
        QCOMPARE(formatStarted(old, now), old.toString("yyyy-MM-dd hh:mm"));
        QVERIFY(formatStarted(QDateTime(), now).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestTimeFormat)
#include "tst_timeformat.moc"
