// Escape suite: on a host whose /dev/net/tun this server's user may not open (root's 0600, as
// on many build hosts), sandboxes get no network and are told why; nothing of the host's network
// leaks in instead. LIZARD_TEST_NO_TUN makes the server answer as on such a host wherever the
// suite runs; the control beside each case is the same request to a server without the knob,
// where the host gives sandboxes a network (CI's passes both do).
#include "escape_support.h"

using namespace lizard::test;

namespace {

// Connects to `host`:`port` from the sandbox and prints "connected" or the error's name.
QString connectProbe(const QString& host, int port)
{
    return QStringLiteral("import errno, socket\n"
                          "s = socket.socket(); s.settimeout(5)\n"
                          "try:\n"
                          "    s.connect(('%1', %2)); print('connected')\n"
                          "except OSError as e:\n"
                          "    print(errno.errorcode.get(e.errno, str(e)))\n")
        .arg(host)
        .arg(port);
}

QString interfaces(const LocalServer& server, const QString& id)
{
    return runShell(server, id, "ls /sys/class/net").out.simplified();
}

} // namespace

class TestSecNoNetwork : public QObject
{
    Q_OBJECT

    LocalServer m_noTun;  // answers as a host with a 0600 /dev/net/tun
    LocalServer m_server; // the host as it is: the control
    QString m_offline, m_online;

private slots:
    void initTestCase()
    {
        qputenv("LIZARD_TEST_NO_TUN", "1");
        const bool started = m_noTun.start();
        qunsetenv("LIZARD_TEST_NO_TUN");
        QVERIFY2(started, qPrintable(m_noTun.errorString()));
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        QString why;
        m_offline = createSandbox(m_noTun, {{"internetAccess", true}}, &why);
        QVERIFY2(!m_offline.isEmpty(), qPrintable(why));
        m_online = createSandbox(m_server, {{"internetAccess", true}}, &why);
        QVERIFY2(!m_online.isEmpty(), qPrintable(why));
    }

    void cleanupTestCase()
    {
        if (!m_offline.isEmpty())
            m_noTun.request("DELETE", "/api/sandboxes/" + m_offline);
        if (!m_online.isEmpty())
            m_server.request("DELETE", "/api/sandboxes/" + m_online);
    }

    // The server says at startup that sandboxes will have no network, why, and what fixes it.
    void theLogNamesTheCauseAndTheFix()
    {
        const QString log = QString::fromUtf8(m_noTun.log());
        QVERIFY2(log.contains("network no (/dev/net/tun is not usable by this user") &&
                     log.contains("sudo chmod 0666 /dev/net/tun"),
                 qPrintable(log));
        QVERIFY2(QString::fromUtf8(m_server.log()).contains(", network yes"),
                 qPrintable("the control server's host gives sandboxes no network:\n" +
                            QString::fromUtf8(m_server.log())));
    }

    // Asked for the internet, the sandbox gets only lo and its info says so.
    void internetAccessIsNotClaimed()
    {
        QCOMPARE(SandboxApi(m_noTun).info(m_offline).value("internetAccess").toBool(), false);
        QCOMPARE(interfaces(m_noTun, m_offline), QStringLiteral("lo"));
        const auto r = runPython(m_noTun, m_offline, connectProbe("10.0.2.3", 53));
        QVERIFY2(r.exitCode == 0 && r.out.trimmed() == "ENETUNREACH", qPrintable(r.describe()));
        // Control: the same request to the host as it is has a network.
        QCOMPARE(SandboxApi(m_server).info(m_online).value("internetAccess").toBool(), true);
        QVERIFY2(interfaces(m_server, m_online).contains("tap0"),
                 qPrintable(interfaces(m_server, m_online)));
    }

    // An allow-list could reach nothing: refused at once, saying why, and no sandbox is left.
    void allowedHostsIsRefusedWithTheCause()
    {
        const auto before = jsonArray(m_noTun.request("GET", "/api/sandboxes")).size();
        const QJsonArray projects = jsonArray(m_noTun.request("GET", "/api/projects"));
        QVERIFY(!projects.isEmpty());
        const QJsonObject body{{"projectId", projects.first().toObject().value("id")},
                               {"allowedHosts", QJsonArray{"deb.debian.org"}}};
        const auto r = m_noTun.request("POST", "/api/sandboxes", toJson(body));
        QVERIFY2(isError(r, 503, "NETWORK_UNAVAILABLE"), qPrintable(describe(r)));
        const QString message = jsonObject(r).value("message").toString();
        QVERIFY2(message.contains("/dev/net/tun is not usable by this user") &&
                     message.contains("sudo chmod 0666 /dev/net/tun"),
                 qPrintable(message));
        QCOMPARE(jsonArray(m_noTun.request("GET", "/api/sandboxes")).size(), before);
        // Control: the host as it is accepts the same list.
        QString why;
        const QString listed =
            createSandbox(m_server, {{"allowedHosts", QJsonArray{"deb.debian.org"}}}, &why);
        QVERIFY2(!listed.isEmpty(), qPrintable(why));
        m_server.request("DELETE", "/api/sandboxes/" + listed);
    }
};

QTEST_GUILESS_MAIN(TestSecNoNetwork)
#include "tst_sec_nonetwork.moc"
