// Escape suite, allowedHosts: a sandbox created with a list reaches what the list names and
// nothing else, enforced by the kernel (agent/build/allowpolicy.h), against a test network this
// suite builds (allowedhosts_support.h); each refusal has a control beside it that succeeds.
#include "allowedhosts_support.h"

using namespace lizard::test;

#define REQUIRE_NET()                                                                              \
    do {                                                                                           \
        if (!m_skip.isEmpty())                                                                     \
            QSKIP(qPrintable(m_skip));                                                             \
    } while (false)

class TestSecAllowedHosts : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    HostListener m_listener;
    TestNet m_net;
    QString m_skip;
    QString m_names;  // names and one address
    QString m_ranges; // ranges only, one of them over a host address

    // Reached: the greeting of the server that has `octet` on `port`, which counted it.
    void expectReached(const QString& id, const QString& host, int port, int octet)
    {
        m_net.takeAccepted();
        const Reach r = reachFrom(m_server, id, host, port);
        const QString where = m_net.at(octet) + ":" + QString::number(port);
        QVERIFY2(r.resolve == "OK" && r.error == "OK",
                 qPrintable(host + ":" + QString::number(port) + ": " + r.resolve + " " + r.error));
        QCOMPARE(r.reply, "ok " + where);
        QCOMPARE(m_net.takeAccepted(), QStringList{where});
    }
    // Resolved (when a name) but the connection fails at once with EACCES; nothing arrived.
    void expectProhibited(const QString& id, const QString& host, int port)
    {
        m_net.takeAccepted();
        m_listener.takeConnections();
        const Reach r = reachFrom(m_server, id, host, port);
        QVERIFY2(r.resolve == "OK" && r.error == "EACCES",
                 qPrintable(host + ":" + QString::number(port) + ": " + r.resolve + " " + r.error));
        QVERIFY2(r.ms >= 0 && r.ms < 1000, qPrintable(QStringLiteral("took %1 ms").arg(r.ms)));
        QCOMPARE(m_net.takeAccepted(), QStringList());
        QCOMPARE(m_listener.takeConnections(), 0);
    }
    // The name does not resolve, and fails fast.
    void expectUnresolved(const QString& id, const QString& host)
    {
        const Reach r = reachFrom(m_server, id, host, 80);
        QVERIFY2(r.resolve != "OK" && !r.resolve.startsWith("<"), qPrintable(host + ": " + r.ip));
        QVERIFY2(r.ms >= 0 && r.ms < 1500, qPrintable(QStringLiteral("took %1 ms").arg(r.ms)));
    }
    QJsonObject create(const QJsonArray& hosts, QString* why)
    {
        const auto r = m_server.request("POST", "/api/sandboxes",
                                        toJson(QJsonObject{{"allowedHosts", hosts}}));
        *why = describe(r);
        return r.status == 200 ? jsonObject(r) : QJsonObject();
    }

private slots:
    void initTestCase()
    {
        if (::geteuid() != 0) {
            m_skip = "building the test network needs root";
        } else if (QString why; !m_net.start({{"www.allowed.test", 2},
                                              {"a.example.test", 5},
                                              {"example.test", 3},
                                              {"example.test.evil", 3},
                                              {"denied.test", 3}},
                                             &why)) {
            QFAIL(qPrintable("test network: " + why));
        }
        if (m_skip.isEmpty())
            qputenv("LIZARD_TEST_DNS_UPSTREAM", m_net.dnsUpstream().toUtf8());
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        if (!m_skip.isEmpty())
            return;
        QString why;
        const QJsonObject names = create({"WWW.Allowed.Test", "*.example.test", m_net.at(4)}, &why);
        m_names = names.value("sandboxId").toString();
        if (m_names.isEmpty() && why.contains("NETWORK_UNAVAILABLE")) {
            m_skip = "this host gives sandboxes no network: " + why;
            return;
        }
        QVERIFY2(!m_names.isEmpty(), qPrintable(why));
        m_ranges = create({m_net.at(0) + "/24", "10.0.2.0/24", "169.254.0.0/16"}, &why)
                       .value("sandboxId")
                       .toString();
        QVERIFY2(!m_ranges.isEmpty(), qPrintable(why));
    }

    void cleanupTestCase()
    {
        for (const QString& id : {m_names, m_ranges}) {
            if (!id.isEmpty())
                m_server.request("DELETE", "/api/sandboxes/" + id);
        }
        m_net.stop();
    }

    void infoShowsTheListAndNoInternet()
    {
        REQUIRE_NET();
        const QJsonObject info = jsonObject(m_server.request("GET", "/api/sandboxes/" + m_names));
        QCOMPARE(info.value("internetAccess").toBool(true), false);
        QCOMPARE(info.value("allowedHosts").toArray(),
                 (QJsonArray{"www.allowed.test", "*.example.test", m_net.at(4)}));
        const QJsonArray all = jsonArray(m_server.request("GET", "/api/sandboxes"));
        bool listed = false;
        for (const auto& v : all)
            listed |= v.toObject().value("sandboxId").toString() == m_names &&
                      v.toObject().value("allowedHosts").toArray().size() == 3;
        QVERIFY(listed);
        // Control: a sandbox without a list shows an empty one.
        QString why;
        const QString plain = createSandbox(m_server, {{"internetAccess", false}}, &why);
        QVERIFY2(!plain.isEmpty(), qPrintable(why));
        const QJsonObject p = jsonObject(m_server.request("GET", "/api/sandboxes/" + plain));
        m_server.request("DELETE", "/api/sandboxes/" + plain);
        QCOMPARE(p.value("allowedHosts").toArray(), QJsonArray());
    }

    void listedNameOnWebPortsOnly()
    {
        REQUIRE_NET();
        expectReached(m_names, "www.allowed.test", 80, 2);
        expectReached(m_names, "www.allowed.test", 443, 2);
        expectProhibited(m_names, "www.allowed.test", 8080);
        // Control: the listed address is open on every port, 8080 included.
        expectReached(m_names, m_net.at(4), 8080, 4);
    }

    void unlistedNameDoesNotResolve()
    {
        REQUIRE_NET();
        const int before = m_net.dnsQueries();
        expectUnresolved(m_names, "denied.test");
        // Refused by the forwarder: the test's DNS server (which knows the name) never saw it.
        QCOMPARE(m_net.dnsQueries(), before);
        // Control: a listed name resolves through the same forwarder.
        const Reach ok = reachFrom(m_server, m_names, "www.allowed.test", 80);
        QCOMPARE(ok.ip, m_net.at(2));
        QVERIFY(m_net.dnsQueries() > before);
    }

    void unlistedAddressIsProhibited()
    {
        REQUIRE_NET();
        expectProhibited(m_names, m_net.at(3), 80); // denied.test's address, on a web port
        expectProhibited(m_names, m_net.at(3), 8080);
        expectReached(m_names, m_net.at(4), 80, 4); // control: the listed one
    }

    void wildcardCoversSubdomainsOnly()
    {
        REQUIRE_NET();
        expectReached(m_names, "a.example.test", 443, 5);
        expectUnresolved(m_names, "example.test.evil");
        expectUnresolved(m_names, "example.test"); // "*." is for subdomains, not the name itself
    }

    void slirpDnsIsNotReachableDirectly()
    {
        REQUIRE_NET();
        // The sandbox's resolver address is the forwarder's; slirp4netns' own DNS behind it is
        // not reachable on any other port of that address either.
        const ProbeResult p =
            runPython(m_server, m_names,
                      "import socket\n"
                      "s = socket.socket(); s.settimeout(3)\n"
                      "try:\n    s.connect(('10.0.2.3', 53)); print('connected')\n"
                      "except OSError as e: print(e.errno)\n");
        QVERIFY2(p.out.trimmed() == "111", qPrintable(p.describe())); // ECONNREFUSED: lo, UDP only
    }

    void rangesKeepHostAndSlirpClosed()
    {
        REQUIRE_NET();
        // The /24 covers the host's end of the veth pair; 10.0.2.0/24 the slirp gateway and
        // DNS; 169.254.0.0/16 the metadata address. All stay closed.
        expectProhibited(m_ranges, m_net.at(1), m_listener.port());
        expectProhibited(m_ranges, "10.0.2.2", m_listener.port());
        expectProhibited(m_ranges, "10.0.2.3", 53);
        expectProhibited(m_ranges, "169.254.169.254", 80);
        // Control: the rest of the range, on any port.
        expectReached(m_ranges, m_net.at(2), 8080, 2);
        expectReached(m_ranges, m_net.at(3), 443, 3);
    }

    void addressesOnlyKeepDnsClosed()
    {
        REQUIRE_NET();
        const int before = m_net.dnsQueries();
        expectUnresolved(m_ranges, "www.allowed.test");
        QCOMPARE(m_net.dnsQueries(), before);
        const ProbeResult p =
            runPython(m_server, m_ranges,
                      "import socket\n"
                      "u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n"
                      "try:\n    u.sendto(b'x', ('10.0.2.3', 53)); print('sent')\n"
                      "except OSError as e: print(e.errno)\n");
        QVERIFY2(p.out.trimmed() == "13", qPrintable(p.describe())); // EACCES
        // Control: the sandbox with a name in its list resolves.
        QCOMPARE(reachFrom(m_server, m_names, "www.allowed.test", 443).ip, m_net.at(2));
    }

    void rulesCannotBeChangedFromInside()
    {
        REQUIRE_NET();
        const QString open = m_net.at(3);
        const ProbeResult p =
            runShell(m_server, m_names,
                     "ip rule del priority 32000 2>&1; ip rule add to " + open +
                         " lookup main priority 1 2>&1; ip addr del 10.0.2.3/32 dev lo 2>&1; "
                         "ip rule show");
        QCOMPARE(p.out.count("Operation not permitted"), 3);
        QVERIFY2(p.out.contains("32000:\tfrom all prohibit"), qPrintable(p.describe())); // control
        expectProhibited(m_names, open, 80);
    }

    void forwarderKeepsOnlyWhatItNeeds()
    {
        // The forwarder parses what sandbox code sends it. Were a message to take it over, it
        // could only add rules (CAP_NET_ADMIN) through the calls of its loop: no other
        // capability, no exec, no file opened, no socket but rtnetlink.
        REQUIRE_NET();
        const ProbeResult p =
            runPython(m_server, m_names,
                      "import os\n"
                      "pid = [p for p in os.listdir('/proc') if p.isdigit() and\n"
                      "       open('/proc/%s/comm' % p).read().strip() == 'lizard-dns'][0]\n"
                      "for line in open('/proc/%s/status' % pid):\n"
                      "    k = line.split(':')[0]\n"
                      "    if k in ('CapEff', 'CapPrm', 'CapBnd', 'CapInh', 'CapAmb', "
                      "'NoNewPrivs', 'Seccomp'):\n"
                      "        print(k, line.split()[1])\n");
        for (const char* want :
             {"CapEff 0000000000001000", "CapPrm 0000000000001000", "CapBnd 0000000000001000",
              "CapInh 0000000000000000", "CapAmb 0000000000000000", "NoNewPrivs 1", "Seccomp 2"})
            QVERIFY2(p.out.contains(want), qPrintable(QString(want) + " missing: " + p.describe()));
        // Control: confined, it still resolves a listed name and opens its address.
        QCOMPARE(reachFrom(m_server, m_names, "a.example.test", 443).ip, m_net.at(5));
    }

    void killingTheForwarderOpensNothing()
    {
        REQUIRE_NET();
        QString why;
        const QString id = create({"www.allowed.test"}, &why).value("sandboxId").toString();
        QVERIFY2(!id.isEmpty(), qPrintable(why));
        // Control: the name resolves while the forwarder runs.
        QCOMPARE(reachFrom(m_server, id, "www.allowed.test", 80).ip, m_net.at(2));
        // Its memory and environment are out of reach (not dumpable, another user namespace);
        // killing it (same uid) only ends DNS.
        const ProbeResult p =
            runPython(m_server, id,
                      "import os, signal\n"
                      "def stat(p): return open('/proc/%s/stat' % p).read()\n"
                      "pid = [p for p in os.listdir('/proc') if p.isdigit() and\n"
                      "       '(lizard-dns)' in stat(p)][0]\n"
                      "for f in ('mem', 'environ'):\n"
                      "    try: open('/proc/%s/%s' % (pid, f), 'rb').read(1); print(f, 'read')\n"
                      "    except OSError as e: print(f, e.errno)\n"
                      "os.kill(int(pid), signal.SIGKILL); print('killed')\n");
        QVERIFY2(p.out.contains("mem 13") && p.out.contains("environ 13") &&
                     p.out.contains("killed"),
                 qPrintable(p.describe()));
        expectUnresolved(id, "www.allowed.test");
        expectProhibited(id, m_net.at(3), 80);
        m_server.request("DELETE", "/api/sandboxes/" + id);
    }

    void forkKeepsTheList()
    {
        REQUIRE_NET();
        const auto r = m_server.request("POST", "/api/sandboxes/" + m_ranges + "/fork",
                                        toJson(QJsonObject{{"count", 1}}));
        QCOMPARE(r.status, 200);
        const QJsonObject copy = jsonArray(r).first().toObject().value("sandbox").toObject();
        const QString id = copy.value("sandboxId").toString();
        QVERIFY2(!id.isEmpty(), r.body.constData());
        QCOMPARE(copy.value("internetAccess").toBool(true), false);
        QCOMPARE(copy.value("allowedHosts").toArray().size(), 3);
        expectProhibited(id, m_net.at(1), m_listener.port());
        expectProhibited(id, "10.0.2.2", m_listener.port());
        expectReached(id, m_net.at(2), 8080, 2); // control
        m_server.request("DELETE", "/api/sandboxes/" + id);
    }

    void restartOfTheServerKeepsTheList()
    {
        REQUIRE_NET();
        QVERIFY2(m_server.restart(), qPrintable(m_server.errorString()));
        const QJsonObject info = jsonObject(m_server.request("GET", "/api/sandboxes/" + m_names));
        QCOMPARE(info.value("allowedHosts").toArray().size(), 3);
        QCOMPARE(info.value("internetAccess").toBool(true), false);
        // The rules and the forwarder live in the sandbox, not in lizard-local.
        expectReached(m_names, "www.allowed.test", 443, 2);
        expectProhibited(m_names, "www.allowed.test", 8080);
        expectUnresolved(m_names, "denied.test");
    }

    void badListsAreRefused_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<QString>("code");
        QJsonArray many;
        for (int i = 0; i < 51; ++i)
            many.append(QStringLiteral("h%1.example.test").arg(i));
        QTest::newRow("51 entries")
            << QJsonObject{{"allowedHosts", many}} << "TOO_MANY_ALLOWED_HOSTS";
        QTest::newRow("bad name") << QJsonObject{{"allowedHosts", QJsonArray{"exa mple.test"}}}
                                  << "INVALID_ALLOWED_HOST";
        QTest::newRow("dash label")
            << QJsonObject{{"allowedHosts", QJsonArray{"-a.test"}}} << "INVALID_ALLOWED_HOST";
        QTest::newRow("bad cidr") << QJsonObject{{"allowedHosts", QJsonArray{"198.18.0.0/33"}}}
                                  << "INVALID_ALLOWED_HOST";
        QTest::newRow("bad address")
            << QJsonObject{{"allowedHosts", QJsonArray{"300.1.2.3"}}} << "INVALID_ALLOWED_HOST";
        QTest::newRow("ipv6") << QJsonObject{{"allowedHosts", QJsonArray{"2001:db8::/32"}}}
                              << "INVALID_ALLOWED_HOST";
        QTest::newRow("not a string")
            << QJsonObject{{"allowedHosts", QJsonArray{42}}} << "INVALID_ARGUMENT";
        QTest::newRow("with internet")
            << QJsonObject{{"allowedHosts", QJsonArray{"a.test"}}, {"internetAccess", true}}
            << "INVALID_ARGUMENT";
    }
    void badListsAreRefused()
    {
        QFETCH(QJsonObject, body);
        QFETCH(QString, code);
        const auto r = m_server.request("POST", "/api/sandboxes", toJson(body));
        QCOMPARE(r.status, 400);
        QCOMPARE(jsonObject(r).value("code").toString(), code);
    }

    void fiftyEntriesAreAccepted()
    {
        REQUIRE_NET();
        QJsonArray hosts;
        for (int i = 0; i < 49; ++i)
            hosts.append(QStringLiteral("h%1.example.test").arg(i));
        hosts.append("198.18.0.0/15");
        QString why;
        const QJsonObject created = create(hosts, &why);
        QVERIFY2(!created.isEmpty(), qPrintable(why));
        m_server.request("DELETE", "/api/sandboxes/" + created.value("sandboxId").toString());
        QCOMPARE(created.value("allowedHosts").toArray().size(), 50);
        QCOMPARE(created.value("internetAccess").toBool(true), false);
    }
};

QTEST_GUILESS_MAIN(TestSecAllowedHosts)
#include "tst_sec_allowedhosts.moc"
