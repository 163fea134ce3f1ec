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
        QTest::newRow("plain")
            << "lizard-local 0.1.0 listening on http://127.0.0.1:7411\nkey file: /d/api-key\n"
            << "http://127.0.0.1:7411"
            << "/d/api-key";
        QTest::newRow("interleaved stderr")
            << "capabilities: cgroup v1\nlizard-local 0.1.0 listening on "
               "http://127.0.0.1:40000\nnote\nkey file: /x y/k\n"
            << "http://127.0.0.1:40000"
            << "/x y/k";
        QTest::newRow("last run wins")
            << "lizard-local 0.1.0 listening on http://127.0.0.1:1\nkey file: /a\n"
               "lizard-local 0.1.0 listening on http://127.0.0.1:2\nkey file: /b\n"
            << "http://127.0.0.1:2"
            << "/b";
        QTest::newRow("nothing yet") << "starting\n"
                                     << ""
                                     << "";
        QTest::newRow("half a line") << "lizard-local 0.1.0 listening on http://127.0.0.1:7411"
                                     << "http://127.0.0.1:7411"
                                     << "";
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

    void notes_data()
    {
        QTest::addColumn<QString>("log");
        QTest::addColumn<QStringList>("notes");
        const QString t = "2026-11-29T09:59:00.123Z info ";
        QTest::newRow("all fine") << t + "runtime: sandboxes yes\n" + t +
                                         "runtime: cgroup mode v2, limits yes\n" + t +
                                         "runtime: full uid range yes, network yes\n" + t +
                                         "runtime: interpreter template yes\n"
                                  << QStringList{};
        QTest::newRow("limits off with reason")
            << t + "runtime: cgroup mode v1, limits no (memory controller not writable)\n"
            << QStringList{"resource limits not enforced (memory controller not writable)"};
        QTest::newRow("no userns")
            << t + "runtime: sandboxes no (kernel.unprivileged_userns_clone=0)\n"
            << QStringList{"sandboxes unavailable: kernel.unprivileged_userns_clone=0"};
        QTest::newRow("uids and network")
            << t + "runtime: full uid range no, network no\n"
            << QStringList{"one user id inside sandboxes (no subordinate uid range)",
                           "no internet access from sandboxes"};
        QTest::newRow("interpreter")
            << t + "runtime: interpreter template no (missing: python3-numpy)\n"
            << QStringList{"interpreter template unavailable (missing python3-numpy)"};
        QTest::newRow("only the last run counts")
            << t +
                   "runtime: cgroup mode none, limits no\nlizard-local 0.1.0 listening on "
                   "http://127.0.0.1:1\n" +
                   t +
                   "runtime: cgroup mode v2, limits yes\nlizard-local 0.1.0 listening on "
                   "http://127.0.0.1:2\n"
            << QStringList{};
    }
    void notes()
    {
        QFETCH(QString, log);
        QFETCH(QStringList, notes);
        QCOMPARE(capabilityNotes(log), notes);
    }
};

QTEST_GUILESS_MAIN(TestServerLog)
#include "tst_serverlog.moc"
