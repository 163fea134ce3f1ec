// What the app gives ssh and what it makes of ssh's answers, offline: every run has no prompt and
// checks host keys strictly; ssh's own words become one message per cause.
#include "app/ssh/sshtarget.h"

#include <QTest>

using lizard::app::ssh::Failure;
using lizard::app::ssh::SshTarget;

Q_DECLARE_METATYPE(Failure::Kind)

class TestSshTarget : public QObject
{
    Q_OBJECT
private slots:
    void options()
    {
        SshTarget t;
        t.destination = "ana@big.lab";
        t.port = 2222;
        t.identity = "/home/ana/.ssh/id_lab";
        const QStringList args = t.options();
        QVERIFY(args.join(' ').contains("-o BatchMode=yes"));
        QVERIFY(args.join(' ').contains("-o StrictHostKeyChecking=yes"));
        QVERIFY(args.join(' ').contains("-p 2222"));
        QVERIFY(args.join(' ').contains("-i /home/ana/.ssh/id_lab"));
        QVERIFY(!args.contains("-F"));
        QVERIFY(!args.contains(t.destination)); // the caller puts it last, after its own options
        QCOMPARE(t.label(), QString("ana@big.lab:2222"));

        SshTarget plain;
        plain.destination = "workstation";
        QVERIFY(!plain.options().contains("-p"));
        QVERIFY(!plain.options().contains("-i"));
        QCOMPARE(plain.label(), QString("workstation"));
        const QStringList mux = plain.overMaster("/tmp/x/ctl");
        QVERIFY(mux.join(' ').contains("-o ControlMaster=no -S /tmp/x/ctl"));
    }

    void failures_data()
    {
        QTest::addColumn<QByteArray>("stderrText");
        QTest::addColumn<Failure::Kind>("kind");
        QTest::addColumn<QString>("says");
        QTest::newRow("unknown key")
            << QByteArray("No ED25519 host key is known for [h]:22 and you have requested strict "
                          "checking.\r\nHost key verification failed.\r\n")
            << Failure::Kind::UnknownHostKey << "not known yet";
        QTest::newRow("changed key")
            << QByteArray("@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n"
                          "@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @\n"
                          "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n"
                          "Host key for [h]:22 has changed and you have requested strict "
                          "checking.\nHost key verification failed.\n")
            << Failure::Kind::ChangedHostKey << "has CHANGED";
        QTest::newRow("refused login")
            << QByteArray("ana@h: Permission denied (publickey).\r\n") << Failure::Kind::Refused
            << "refused the login (ana@h: Permission denied (publickey).)";
        QTest::newRow("nothing listens")
            << QByteArray("ssh: connect to host h port 22: Connection refused\r\n")
            << Failure::Kind::Unreachable << "cannot be reached: ssh: connect to host h port 22";
        QTest::newRow("no such name")
            << QByteArray("ssh: Could not resolve hostname nowhere: Name or service not known\r\n")
            << Failure::Kind::Unreachable << "Could not resolve hostname";
        QTest::newRow("silent") << QByteArray() << Failure::Kind::Other
                                << "ssh ended without saying why";
    }

    void failures()
    {
        QFETCH(QByteArray, stderrText);
        QFETCH(Failure::Kind, kind);
        QFETCH(QString, says);
        SshTarget t;
        t.destination = "ana@h";
        const Failure f = lizard::app::ssh::failure(t, stderrText);
        QCOMPARE(f.kind, kind);
        QVERIFY2(f.message.contains(says), qPrintable(f.message));
        QVERIFY2(f.message.contains("ana@h"), qPrintable(f.message));
    }
};

QTEST_GUILESS_MAIN(TestSshTarget)
#include "tst_sshtarget.moc"
