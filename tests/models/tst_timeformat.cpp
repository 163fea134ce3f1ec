// formatTimeLeft / formatStarted: what the sandbox table shows.
#include "models/timeformat.h"

#include <QTest>

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
