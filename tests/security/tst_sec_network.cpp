// Escape suite, network: a sandbox with internet access reaches no address of the host (its
// loopback, its other IPv4 and IPv6 addresses, the slirp gateway, link-local/metadata), and
// fails at once rather than hanging; while its own loopback, DNS and a host that is not this
// one (a network namespace behind a veth pair) keep working.
#include "net_support.h"
#include "server/hostleftovers.h"

#include <QDir>
#include <QTemporaryDir>

using namespace lizard::test;

// A macro: QSKIP returns from the function it is written in.
#define REQUIRE_NETWORK()                                                                          \
    do {                                                                                           \
        if (!m_noNetwork.isEmpty())                                                                \
            QSKIP(qPrintable(m_noNetwork));                                                        \
    } while (false)

class TestSecNetwork : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    HostListener m_listener;
    VethHost m_remote;
    QString m_online, m_offline, m_noNetwork, m_noRemote;
    QStringList m_hostAddresses; // when m_online started

    // The attempt fails within a second with one of `errors`, and nothing reached the host.
    void expectRefused(const QString& host, int port, const QStringList& errors, QString id = {})
    {
        m_listener.takeConnections(); // what an earlier, failed attempt let through is not ours
        QString raw;
        const ConnectOutcome c =
            connectFrom(m_server, id.isEmpty() ? m_online : id, host, port, false, &raw);
        QVERIFY2(errors.contains(c.error), qPrintable(host + ": " + c.error + " (" + raw + ")"));
        QVERIFY2(c.ms >= 0 && c.ms < 1000,
                 qPrintable(host + QStringLiteral(": took %1 ms").arg(c.ms)));
        QCOMPARE(m_listener.takeConnections(), 0);
    }

private slots:
    void initTestCase()
    {
        // Before the sandbox starts: the host side of the veth pair is then one of the
        // host's addresses the sandbox must not reach.
        if (::geteuid() != 0)
            m_noRemote = "building the veth test host needs root";
        else if (QString why; !m_remote.start(&why))
            QFAIL(qPrintable("veth test host: " + why));
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        QString why;
        m_hostAddresses = hostAddresses();
        m_online = createSandbox(m_server, {{"internetAccess", true}}, &why);
        QVERIFY2(!m_online.isEmpty(), qPrintable(why));
        m_offline = createSandbox(m_server, {{"internetAccess", false}}, &why);
        QVERIFY2(!m_offline.isEmpty(), qPrintable(why));
        const auto info = jsonObject(m_server.request("GET", "/api/sandboxes/" + m_online));
        if (!info.value("internetAccess").toBool())
            m_noNetwork =
                "this host gives sandboxes no network (slirp4netns missing, or /dev/net/tun "
                "not usable by the server's user " +
                (m_server.runsAsOtherUser() ? m_server.serverUser() : QString("root")) + ")";
        m_listener.takeConnections();
    }

    void cleanupTestCase()
    {
        for (const QString& id : {m_online, m_offline}) {
            if (!id.isEmpty())
                m_server.request("DELETE", "/api/sandboxes/" + id);
        }
        m_remote.stop();
    }

    void hostLoopbackIsOutOfReach()
    {
        REQUIRE_NETWORK();
        // 127.0.0.1 and ::1 are the sandbox's own: nothing listens there.
        expectRefused("127.0.0.1", m_listener.port(), {"ECONNREFUSED"});
        expectRefused("::1", m_listener.port(), {"ECONNREFUSED"});
    }

    void hostAddressesAreProhibited_data()
    {
        QTest::addColumn<QString>("address");
        for (const QString& a : m_hostAddresses)
            QTest::newRow(qPrintable(a)) << a;
    }
    void hostAddressesAreProhibited()
    {
        REQUIRE_NETWORK();
        QFETCH(QString, address);
        // IPv4: our prohibit routes; IPv6: off on tap0, prohibit routes besides.
        expectRefused(address, m_listener.port(), {"EACCES", "ENETUNREACH"});
    }

    void slirpGatewayIsProhibited()
    {
        REQUIRE_NETWORK();
        expectRefused("10.0.2.2", m_listener.port(), {"EACCES"});
    }

    void metadataAddressIsProhibited()
    {
        REQUIRE_NETWORK();
        expectRefused("169.254.169.254", 80, {"EACCES"});
        expectRefused("169.254.1.1", m_listener.port(), {"EACCES"});
    }

    void packetSocketCannotSkipTheRoutes()
    {
        REQUIRE_NETWORK();
        QString target;
        for (const QString& a : m_hostAddresses) {
            if (!a.contains(':') && target.isEmpty())
                target = a;
        }
        if (target.isEmpty())
            QSKIP("this host has no IPv4 address besides loopback");
        m_listener.takeConnections();
        const ProbeResult p =
            runArgv(m_server, m_online,
                    {"python3", "-c", pyRawSynProbe(), QString::number(m_listener.port()), target});
        QVERIFY2(p.exitCode == 0, qPrintable(p.describe()));
        // No packet socket (EPERM: no CAP_NET_RAW over the network namespace); were there one,
        // slirp4netns would connect to the host on the hand-made frame's behalf.
        QVERIFY2(p.out.startsWith("socket 1"), qPrintable(p.describe()));
        QTest::qWait(300);
        QVERIFY2(m_listener.takeConnections() == 0,
                 qPrintable("a raw SYN reached the host: " + p.describe()));
    }

    // The host's addresses are read at each start: one added since (a VPN coming up) is
    // blocked in sandboxes started after it.
    void addressAddedLaterIsBlockedInNewSandboxes()
    {
        REQUIRE_NETWORK();
        if (!m_noRemote.isEmpty())
            QSKIP(qPrintable(m_noRemote));
        const QString added = m_remote.hostSide.section('.', 0, 2) + ".250";
        QString why;
        QVERIFY2(m_remote.addHostAddress(added, &why), qPrintable(why));
        const QString later = createSandbox(m_server, {{"internetAccess", true}}, &why);
        QVERIFY2(!later.isEmpty(), qPrintable(why));
        expectRefused(added, m_listener.port(), {"EACCES"}, later);
        m_server.request("DELETE", "/api/sandboxes/" + later);
        m_remote.removeHostAddress(added);
    }

    // Without CAP_NET_RAW, ping uses ICMP datagram sockets: they work for the sandbox's
    // users and obey the routes.
    void pingSocketsFollowTheRoutes()
    {
        REQUIRE_NETWORK();
        const QString code =
            "import socket, sys\n"
            "s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, socket.IPPROTO_ICMP)\n"
            "for a in sys.argv[1:]:\n"
            "    try: s.sendto(b'\\x08\\0\\0\\0\\0\\1\\0\\1', (a, 0)); print(a, 'sent')\n"
            "    except OSError as e: print(a, e.errno)\n";
        QStringList argv{"python3", "-c", code, "10.0.2.2", "169.254.169.254"};
        for (const QString& a : m_hostAddresses) {
            if (!a.contains(':'))
                argv << a;
        }
        if (!m_remote.remote.isEmpty())
            argv << m_remote.remote;
        const ProbeResult p = runArgv(m_server, m_online, argv, "user");
        QVERIFY2(p.exitCode == 0, qPrintable(p.describe()));
        for (const QString& line : p.out.trimmed().split('\n')) {
            const QString expected =
                line.startsWith(m_remote.remote + " ") && !m_remote.remote.isEmpty()
                    ? "sent"
                    : QString::number(EACCES);
            QVERIFY2(line.section(' ', 1) == expected, qPrintable(line + " | " + p.describe()));
        }
    }

    // Controls.

    void ownLoopbackServerAnswers()
    {
        REQUIRE_NETWORK();
        const ProbeResult p =
            runPython(m_server, m_online,
                      "import socket\n"
                      "s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(1)\n"
                      "c = socket.create_connection(s.getsockname(), timeout=5)\n"
                      "a, _ = s.accept(); a.sendall(b'own-ok'); print(c.recv(16).decode())\n");
        QVERIFY2(p.exitCode == 0 && p.out.trimmed() == "own-ok", qPrintable(p.describe()));
    }

    void remoteHostAnswers()
    {
        REQUIRE_NETWORK();
        if (!m_noRemote.isEmpty())
            QSKIP(qPrintable(m_noRemote));
        QString raw;
        const ConnectOutcome c =
            connectFrom(m_server, m_online, m_remote.remote, m_remote.port, true, &raw);
        QVERIFY2(c.error == "OK" && c.reply == "remote-ok", qPrintable(raw));
        // Its neighbour on the same /30 is this host, so it stays out of reach.
        expectRefused(m_remote.hostSide, m_listener.port(), {"EACCES"});
    }

    // Starting a networked sandbox leaves the host's mounts as they were. slirp4netns as root
    // detaches its copy of the host's mounts; below a shared mount other than / (such as
    // /run/netns/<name> of `ip netns`, or what systemd hosts have below /run, /dev and /sys)
    // that detach would propagate back and unmount them on the host.
    void hostMountsSurviveANetworkedSandbox()
    {
        REQUIRE_NETWORK();
        if (::geteuid() != 0)
            QSKIP("a shared test mount needs root");
        QTemporaryDir dir;
        const QString shared = dir.path() + "/shared", child = shared + "/child";
        QVERIFY(QDir().mkpath(child));
        auto mounted = [&child] { return mountsUnder(child).contains(child); };
        QCOMPARE(QProcess::execute("mount", {"--bind", shared, shared}), 0);
        QCOMPARE(QProcess::execute("mount", {"--make-shared", shared}), 0);
        QCOMPARE(QProcess::execute("mount", {"-t", "tmpfs", "-o", "size=1m", "lzt", child}), 0);
        QVERIFY(mounted()); // the control: the check sees the mount
        QString why;
        const QString id = createSandbox(m_server, {{"internetAccess", true}}, &why);
        const bool kept = mounted();
        if (!id.isEmpty())
            m_server.request("DELETE", "/api/sandboxes/" + id);
        QProcess::execute("umount", {"-R", shared});
        QVERIFY2(!id.isEmpty(), qPrintable(why));
        QVERIFY2(kept, "starting a networked sandbox unmounted a mount of the host");
    }

    void dnsStillAnswers()
    {
        REQUIRE_NETWORK();
        // A query for example.com; any answer (NXDOMAIN too) with our id will do.
        const QString query =
            "import socket, sys\n"
            "s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.settimeout(5)\n"
            "q = bytes.fromhex('4c7a01000001000000000000076578616d706c6503636f6d0000010001')\n"
            "s.sendto(q, (sys.argv[1], 53))\n"
            "print(s.recv(512)[:2].hex())\n";
        QString nameserver;
        QFile resolv("/etc/resolv.conf");
        if (resolv.open(QIODevice::ReadOnly)) {
            for (const QString& line : QString::fromUtf8(resolv.readAll()).split('\n')) {
                if (line.startsWith("nameserver") && nameserver.isEmpty())
                    nameserver = line.section(' ', 1, 1, QString::SectionSkipEmpty);
            }
        }
        QProcess host;
        host.start("python3", {"-c", query, nameserver});
        host.waitForFinished(10000);
        if (nameserver.isEmpty() || host.readAllStandardOutput().trimmed() != "4c7a")
            QSKIP("the host's own resolver does not answer, so the sandbox's cannot either");
        const ProbeResult p = runArgv(m_server, m_online, {"python3", "-c", query, "10.0.2.3"});
        QVERIFY2(p.exitCode == 0 && p.out.trimmed() == "4c7a", qPrintable(p.describe()));
    }

    void offlineSandboxHasOnlyLoopback()
    {
        const ProbeResult p =
            runPython(m_server, m_offline,
                      "import socket; print(' '.join(n for _, n in socket.if_nameindex()))");
        QVERIFY2(p.exitCode == 0 && p.out.trimmed() == "lo", qPrintable(p.describe()));
        const ConnectOutcome c = connectFrom(
            m_server, m_offline, m_remote.remote.isEmpty() ? "192.0.2.1" : m_remote.remote, 80);
        QCOMPARE(c.error, QString("ENETUNREACH"));
    }

    // Last: if it fails, the route it removed would fail the tests after it too.
    void guardCannotBeRemovedFromInside()
    {
        REQUIRE_NETWORK();
        const ProbeResult del =
            runShell(m_server, m_online, "ip route del prohibit 10.0.2.2/32 2>&1");
        QVERIFY2(del.exitCode != 0, qPrintable(del.describe()));
        QVERIFY2(del.out.contains("Operation not permitted"), qPrintable(del.describe()));
        const ProbeResult show = runShell(m_server, m_online, "ip route show");
        QVERIFY2(show.exitCode == 0 && show.out.contains("prohibit 10.0.2.2"),
                 qPrintable(show.describe()));
        expectRefused("10.0.2.2", m_listener.port(), {"EACCES"});
    }
};

QTEST_GUILESS_MAIN(TestSecNetwork)
#include "tst_sec_network.moc"
