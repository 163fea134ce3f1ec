// Parsing the port scan (listeningports.h) with /proc/net/tcp* lines recorded on Linux 6.x.
#include "models/listeningports.h"

#include <QProcess>
#include <QTest>

using namespace lizard::models;

namespace {

const char* kHeader4 = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when "
                       "retrnsmt   uid  timeout inode\n";
const char* kHeader6 = "  sl  local_address                         remote_address                 "
                       "       st tx_queue rx_queue "
                       "tr tm->when retrnsmt   uid  timeout inode\n";

// Recorded: python3 listening on 127.0.0.1:18766, [::]:18765 and [::1]:18767.
const char* kTcp = "   0: 00000000:1F40 00000000:0000 0A 00000000:00000000 00:00000000 00000000    "
                   " 0        0 4001 1 "
                   "0000000089642604 100 0 0 10 0\n"
                   "   1: 0100007F:494E 00000000:0000 0A 00000000:00000000 00:00000000 00000000    "
                   " 0        0 835459 1 "
                   "0000000089642604 100 0 0 10 0\n"
                   "   2: 0100007F:1F40 0100007F:C350 01 00000000:00000000 00:00000000 00000000    "
                   " 0        0 4002 1 "
                   "0000000089642604 20 4 30 10 -1\n";
const char* kTcp6 = "   0: 00000000000000000000000000000000:494D "
                    "00000000000000000000000000000000:0000 0A 00000000:00000000 "
                    "00:00000000 00000000     0        0 835458 1 00000000827c534b 100 0 0 10 0\n"
                    "   1: 00000000000000000000000001000000:494F "
                    "00000000000000000000000000000000:0000 0A 00000000:00000000 "
                    "00:00000000 00000000     0        0 835460 1 00000000cf2c04c7 100 0 0 10 0\n"
                    "   2: 00000000000000000000000000000000:1F40 "
                    "00000000000000000000000000000000:0000 0A 00000000:00000000 "
                    "00:00000000 00000000  1000        0 4003 1 00000000cf2c04c7 100 0 0 10 0\n";

QString scan(const QString& tcp, const QString& tcp6, const QString& sockets, const QString& comm)
{
    return "#lizard-tcp\n" + QString(kHeader4) + tcp + "#lizard-tcp6\n" + QString(kHeader6) + tcp6 +
           "#lizard-sockets\n" + sockets + "#lizard-comm\n" + comm;
}

} // namespace

class TestListeningPorts : public QObject
{
    Q_OBJECT
private slots:
    void address_data()
    {
        QTest::addColumn<QString>("hex");
        QTest::addColumn<QString>("text");
        QTest::newRow("any v4") << "00000000"
                                << "0.0.0.0";
        QTest::newRow("loopback v4") << "0100007F"
                                     << "127.0.0.1";
        QTest::newRow("private v4") << "0F02000A"
                                    << "10.0.2.15";
        QTest::newRow("any v6") << "00000000000000000000000000000000"
                                << "::";
        QTest::newRow("loopback v6") << "00000000000000000000000001000000"
                                     << "::1";
        QTest::newRow("v4-mapped") << "0000000000000000FFFF00000100007F"
                                   << "::ffff:127.0.0.1";
        QTest::newRow("link-local") << "000080FE000000000000000001000000"
                                    << "fe80::1";
        QTest::newRow("documentation") << "B80D01200000000000FF000029834200"
                                       << "2001:db8::ff00:42:8329";
        QTest::newRow("no zero run") << "B80D0120020001000400030006000500"
                                     << "2001:db8:1:2:3:4:5:6";
        QTest::newRow("first of two equal zero runs") << "B80D0120000000000000010001000000"
                                                      << "2001:db8::1:0:0:1";
        QTest::newRow("single zero group not compressed") << "B80D0120010000000100010001000100"
                                                          << "2001:db8:0:1:1:1:1:1";
        QTest::newRow("lower case hex") << "0100007f"
                                        << "127.0.0.1";
        QTest::newRow("too short") << "0100007"
                                   << "";
        QTest::newRow("not hex") << "0100007G"
                                 << "";
        QTest::newRow("empty") << ""
                               << "";
    }
    void address()
    {
        QFETCH(QString, hex);
        QFETCH(QString, text);
        QCOMPARE(procNetAddress(hex), text);
    }

    void procNetTcp_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QList<int>>("ports");
        QTest::addColumn<QStringList>("addresses");
        QTest::newRow("v4: listeners only, established skipped")
            << QString(kHeader4) + kTcp << QList<int>{8000, 18766}
            << QStringList{"0.0.0.0", "127.0.0.1"};
        QTest::newRow("v6") << QString(kHeader6) + kTcp6 << QList<int>{18765, 18767, 8000}
                            << QStringList{"::", "::1", "::"};
        QTest::newRow("header only") << QString(kHeader4) << QList<int>{} << QStringList{};
        QTest::newRow("empty") << QString() << QList<int>{} << QStringList{};
        QTest::newRow("garbage and a truncated line")
            << QString("hello world\n   0: 00000000:1F40 00000000:0000 0A\n") << QList<int>{}
            << QStringList{};
        QTest::newRow("port 0 and a bad address skipped")
            << QString("   0: 00000000:0000 00000000:0000 0A 0:0 0:0 0 0 0 7\n"
                       "   1: 0000000Z:1F40 00000000:0000 0A 0:0 0:0 0 0 0 8\n"
                       "   2: 00000000:0050 00000000:0000 0A 0:0 0:0 0 0 0 9\n")
            << QList<int>{80} << QStringList{"0.0.0.0"};
        QTest::newRow("time-wait and close-wait skipped")
            << QString("   0: 00000000:1F40 00000000:0000 06 0:0 0:0 0 0 0 7\n"
                       "   1: 00000000:1F41 00000000:0000 08 0:0 0:0 0 0 0 8\n")
            << QList<int>{} << QStringList{};
    }
    void procNetTcp()
    {
        QFETCH(QString, text);
        QFETCH(QList<int>, ports);
        QFETCH(QStringList, addresses);
        const QList<ListenSocket> sockets = parseProcNetTcp(text);
        QCOMPARE(sockets.size(), ports.size());
        for (int i = 0; i < sockets.size(); ++i) {
            QCOMPARE(sockets[i].port, ports[i]);
            QCOMPARE(sockets[i].address, addresses[i]);
        }
    }

    void inodes()
    {
        const QList<ListenSocket> sockets = parseProcNetTcp(QString(kHeader4) + kTcp);
        QCOMPARE(sockets.size(), 2);
        QCOMPARE(sockets[0].inode, quint64(4001));
        QCOMPARE(sockets[1].inode, quint64(835459));
    }

    void wholeScan_data()
    {
        QTest::addColumn<QString>("output");
        QTest::addColumn<QList<ListeningPort>>("expected");
        const QString sockets = "/proc/42/fd/3 socket:[4001]\n/proc/42/fd/4 socket:[4003]\n"
                                "/proc/77/fd/5 socket:[835459]\n/proc/77/fd/6 socket:[999]\n";
        const QString comm =
            "/proc/1/comm:lizard-agent\n/proc/42/comm:python3\n/proc/77/comm:node server\n";
        QTest::newRow("v4 and v6 merged, owners found")
            << scan(kTcp, kTcp6, sockets, comm)
            << QList<ListeningPort>{{8000, {"0.0.0.0", "::"}, 42, "python3"},
                                    {18765, {"::"}, 0, ""},
                                    {18766, {"127.0.0.1"}, 77, "node server"},
                                    {18767, {"::1"}, 0, ""}};
        QTest::newRow("no owners section content (not root)")
            << scan(kTcp, "", "", "")
            << QList<ListeningPort>{{8000, {"0.0.0.0"}, 0, ""}, {18766, {"127.0.0.1"}, 0, ""}};
        QTest::newRow("no IPv6") << QString("#lizard-tcp\n") + kHeader4 + kTcp +
                                        "#lizard-tcp6\n#lizard-sockets\n#lizard-comm\n"
                                 << QList<ListeningPort>{{8000, {"0.0.0.0"}, 0, ""},
                                                         {18766, {"127.0.0.1"}, 0, ""}};
        QTest::newRow("nothing listens") << scan("", "", "", comm) << QList<ListeningPort>{};
        QTest::newRow("no markers at all") << QString(kTcp) << QList<ListeningPort>{};
        QTest::newRow("empty") << QString() << QList<ListeningPort>{};
    }
    void wholeScan()
    {
        QFETCH(QString, output);
        QFETCH(QList<ListeningPort>, expected);
        const QList<ListeningPort> got = parsePortScan(output);
        QCOMPARE(got.size(), expected.size());
        for (int i = 0; i < got.size(); ++i) {
            QCOMPARE(got[i].port, expected[i].port);
            QCOMPARE(got[i].addresses, expected[i].addresses);
            QCOMPARE(got[i].pid, expected[i].pid);
            QCOMPARE(got[i].process, expected[i].process);
        }
    }

    // The real script, run on this machine (it has a /proc like a sandbox's): a socket that
    // python3 listens on is found with its process.
    void scanOfThisMachine()
    {
        QProcess listener;
        listener.start("python3", {"-c", "import socket,sys,time\n"
                                         "s=socket.socket(); s.bind(('127.0.0.1',0)); s.listen()\n"
                                         "print(s.getsockname()[1], flush=True); time.sleep(60)"});
        QVERIFY(listener.waitForReadyRead(10000));
        const int port = listener.readLine().trimmed().toInt();
        QVERIFY(port > 0);
        const int pid = int(listener.processId());
        const QStringList argv = portScanCommand();
        QProcess scan;
        scan.start(argv[0], argv.mid(1));
        QVERIFY(scan.waitForFinished(30000));
        QCOMPARE(scan.exitCode(), 0);
        const QList<ListeningPort> ports =
            parsePortScan(QString::fromUtf8(scan.readAllStandardOutput()));
        listener.kill();
        listener.waitForFinished();
        const auto it = std::find_if(ports.begin(), ports.end(),
                                     [port](const ListeningPort& p) { return p.port == port; });
        QVERIFY2(it != ports.end(), "the listening port was not found");
        QCOMPARE(it->addresses, QStringList{"127.0.0.1"});
        if (it->pid != 0) { // owners are known when this process may read the listener's fds
            QCOMPARE(it->pid, pid);
            QCOMPARE(it->process, QString("python3"));
        }
    }

    void commandIsAShellScript()
    {
        const QStringList argv = portScanCommand();
        QCOMPARE(argv.size(), 3);
        QCOMPARE(argv[0], QString("/bin/sh"));
        QCOMPARE(argv[1], QString("-c"));
        for (const char* part :
             {"/proc/net/tcp", "/proc/net/tcp6", "#lizard-sockets", "%p %l\\n", "/comm"})
            QVERIFY2(argv[2].contains(QLatin1String(part)), part);
    }
};

QTEST_GUILESS_MAIN(TestListeningPorts)
#include "tst_listeningports.moc"
