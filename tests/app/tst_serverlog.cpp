// What the app reads from lizard-local's start-up output.
#include "app/serverlog.h"

#include <QTest>

using namespace lizard::app;

class TestServerLog : public QObject
{
    Q_OBJECT
private slots:
    void announcement_data()
    {
        QTest::addColumn<QString>("log");
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("keyFile");
        QTest::newRow("plain") << "lizard-local 0.1.0 listening on http://127.0.0.1:7411\nkey file: /d/api-key\n"
                               << "http://127.0.0.1:7411" << "/d/api-key";
        QTest::newRow("interleaved stderr")
            << "capabilities: cgroup v1\nlizard-local 0.1.0 listening on http://127.0.0.1:40000\nnote\nkey file: /x y/k\n"
            << "http://127.0.0.1:40000" << "/x y/k";
        QTest::newRow("last run wins")
            << "lizard-local 0.1.0 listening on http://127.0.0.1:1\nkey file: /a\n"
               "lizard-local 0.1.0 listening on http://127.0.0.1:2\nkey file: /b\n"
            << "http://127.0.0.1:2" << "/b";
        QTest::newRow("nothing yet") << "starting\n" << "" << "";
        QTest::newRow("half a line") << "lizard-local 0.1.0 listening on http://127.0.0.1:7411" << "http://127.0.0.1:7411" << "";
    }
    void announcement()
    {
        QFETCH(QString, log);
        QFETCH(QString, url);
        QFETCH(QString, keyFile);
        const ServerAnnouncement a = parseAnnouncement(log);
        QCOMPARE(a.url, url);
        QCOMPARE(a.keyFile, keyFile);
    }

    void notes()
    {
        const QString log = "lizard-local 0.1.0 listening on http://127.0.0.1:7411\n"
                            "limits: not enforced (cgroup not writable)\n"
                            "network: ok\n"
                            "limits: not enforced (cgroup not writable)\n";
        QCOMPARE(capabilityNotes(log), QStringList{"limits: not enforced (cgroup not writable)"});
        QVERIFY(capabilityNotes("all good\n").isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestServerLog)
#include "tst_serverlog.moc"
