// What a sandbox must not see or change: host files (/root, /tmp, the data dir, the user's
// home), host processes, other sandboxes; what it may change stays inside; limits hold.
// Drives the runtime directly (the HTTP suites cover the same API shapes).
#include "tst_runtime_harness.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRandomGenerator>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

using lizard::test::RuntimeHarness;
namespace rt = lizard::runtime;

class TestIsolation : public QObject
{
    Q_OBJECT

private:
    RuntimeHarness m_h;
    rt::SandboxHandle m_a, m_b;
    QString m_token;
    QStringList m_markers;

    rt::SandboxSpec spec(const std::string& id, int pids = 1024, int memoryMb = 1024,
                         bool net = false)
    {
        rt::SandboxSpec s;
        s.id = id;
        s.templateName = "base";
        s.limits = {1, memoryMb, pids};
        s.internetAccess = net;
        return s;
    }

    // Writes a marker file on the host; it must never be readable from a sandbox.
    QString hostMarker(const QString& dir)
    {
        QDir().mkpath(dir);
        const QString path = dir + "/lizard-marker-" + m_token;
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(secret().toUtf8());
        m_markers << path;
        return path;
    }

    // The content of markers; not part of their names (error messages echo names).
    QString secret() const { return "secret-" + QString(m_token).replace('0', 'z'); }

    int shIn(const rt::SandboxHandle& h, const QString& script, std::string* out = nullptr)
    {
        auto r = m_h.sh(h, script.toStdString());
        if (r.error)
            qWarning("exec failed: %s; agent log: %s", r.error->message.c_str(),
                     m_h.agentLog(h.id).constData());
        if (r.error && qEnvironmentVariableIsSet("LIZARD_DEBUG_ISO"))
            QProcess::execute("sh", {"-c", QString("ps -p %1 -o pid,stat,cmd; cat /proc/%1/status "
                                                   "| grep -i sig; echo exit_code=$(cut -d"
                                                   " -f52 /proc/%1/stat)")
                                               .arg(h.initPid)});
        if (out)
            *out = r.out + r.err;
        return r.exitCode;
    }

private slots:
    void initTestCase()
    {
        m_token = QString::number(QRandomGenerator::global()->generate64(), 16);
        QString why;
        QVERIFY2(m_h.init(&why), qPrintable(why));
        if (!m_h.rt().capabilities().sandboxes)
            LIZ_NO_SANDBOX(true, QString::fromStdString(m_h.rt().capabilities().sandboxesError));
        auto a = m_h.rt().start(spec("sb_iso_a"));
        QVERIFY2(a, a ? "" : a.error().message.c_str());
        m_a = a.value();
        auto b = m_h.rt().start(spec("sb_iso_b"));
        QVERIFY2(b, b ? "" : b.error().message.c_str());
        m_b = b.value();
    }

    void cleanupTestCase()
    {
        for (const auto& h : {m_a, m_b})
            if (h.initPid > 0)
                m_h.rt().destroy(h);
        for (const auto& m : m_markers)
            QFile::remove(m);
    }

    void hostFilesAreInvisible_data()
    {
        QTest::addColumn<QString>("dir");
        QTest::newRow("home (/root for root)") << QDir::homePath();
        QTest::newRow("ssh dir") << QDir::homePath() + "/.ssh";
        QTest::newRow("host /tmp") << QString("/tmp");
        QTest::newRow("server data dir") << QString::fromStdString(m_h.dataDir());
        QTest::newRow("another sandbox's dir")
            << QString::fromStdString(m_h.dataDir() + "/sandboxes/sb_iso_b");
    }

    void hostFilesAreInvisible()
    {
        QFETCH(QString, dir);
        const QString marker = hostMarker(dir);
        if (marker.isEmpty())
            QSKIP("cannot write a marker there as this user");
        std::string out;
        QVERIFY(shIn(m_a, "cat '" + marker + "'", &out) != 0);
        QVERIFY2(out.find(secret().toStdString()) == std::string::npos, out.c_str());
        // Nowhere in the sandbox's file system either (/proc, /sys, /dev and the host's /usr
        // aside).
        QCOMPARE(shIn(m_a,
                      "timeout 20 grep -rlsF -D skip --exclude-dir=proc --exclude-dir=sys "
                      "--exclude-dir=dev "
                      "--exclude-dir=usr " +
                          secret() + " / | head -1",
                      &out),
                 0);
        QCOMPARE(QString::fromStdString(out), QString());
        auto viaAgent = m_h.readFile(m_a, marker.toStdString());
        QVERIFY(!viaAgent);
        QCOMPARE(lizard::http::httpStatus(viaAgent.error().kind), 404);
    }

    void writesStayInTheSandbox()
    {
        const QString name = "lizard-iso-" + m_token;
        QCOMPARE(shIn(m_a, "echo changed > /etc/" + name +
                               " && echo '10.9.9.9 evil' >> /etc/hosts && "
                               "touch /root/" +
                               name + " /opt/" + name + " /var/" + name + " /home/user/" + name),
                 0);
        for (const char* dir : {"/etc/", "/root/", "/opt/", "/var/", "/home/user/"})
            QVERIFY2(!QFile::exists(dir + name), dir);
        // The server user's own home directory (the desktop user's, for a non-root server):
        // a sandbox that writes to that path writes into its own file system, never the host's.
        const QString home = QDir::homePath();
        const QString keysPath = home + "/.ssh/authorized_keys";
        auto hostKeys = [&] {
            QFile f(keysPath);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<absent>");
        };
        const QByteArray keysBefore = hostKeys();
        QCOMPARE(shIn(m_a, "mkdir -p '" + home + "/.ssh' && echo " + name + " >> '" + keysPath +
                               "' && touch '" + home + "/" + name + "'"),
                 0);
        QVERIFY2(!QFile::exists(home + "/" + name), qPrintable(home));
        QCOMPARE(hostKeys(), keysBefore);
        QFile hosts("/etc/hosts");
        QVERIFY(hosts.open(QIODevice::ReadOnly));
        QVERIFY(!hosts.readAll().contains("10.9.9.9"));
        // The other sandbox does not see them either.
        QVERIFY(shIn(m_b, "cat /etc/" + name) != 0);
        QVERIFY(shIn(m_b, "grep -q 10.9.9.9 /etc/hosts") != 0);
        // The write landed in this sandbox's own directory.
        QVERIFY(QFile::exists(
            QString::fromStdString(m_h.dataDir() + "/sandboxes/sb_iso_a/upper/etc/") + name));
    }

    void usrIsCopyOnWrite()
    {
        // The sandbox may add to /usr (apt-get install); the host's /usr is the overlay's lower
        // layer and never written, and the other sandbox does not see the file.
        const QString name = "lizard-iso-" + m_token;
        QCOMPARE(shIn(m_a, "echo mine > /usr/bin/" + name + " && cat /usr/bin/" + name), 0);
        QVERIFY(!QFile::exists("/usr/bin/" + name));
        QVERIFY(shIn(m_b, "test -e /usr/bin/" + name) != 0);
        QVERIFY(QFile::exists(
            QString::fromStdString(m_h.dataDir() + "/sandboxes/sb_iso_a/usr-upper/bin/") + name));
        // Whatever the sandbox does to a host file, the host's copy stays as it was.
        QFile motd("/usr/share/base-files/motd");
        QVERIFY(motd.open(QIODevice::ReadOnly));
        const QByteArray before = motd.readAll();
        motd.close();
        shIn(m_a, "echo evil >> /usr/share/base-files/motd; chmod 777 /usr/share/base-files/motd; "
                  "rm -f /usr/share/base-files/motd");
        QVERIFY(motd.open(QIODevice::ReadOnly));
        QCOMPARE(motd.readAll(), before);
        QCOMPARE(QFileInfo(motd).permissions() & QFileDevice::WriteOther,
                 QFileDevice::Permissions());
    }

    void privateFilesOfTheHostAreNotCopied()
    {
        for (const char* f : {"/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/etc/machine-id",
                              "/etc/ssh", "/etc/ssl/private"})
            QVERIFY2(shIn(m_a, QString("test -e ") + f) != 0, f);
        std::string out;
        QCOMPARE(shIn(m_a, "cut -d: -f1 /etc/passwd | tr '\\n' ' '", &out), 0);
        // _apt (apt's download user) only where more than one uid is mapped.
        const bool single = m_h.rt().capabilities().fullUidRange == false;
        QCOMPARE(QString::fromStdString(out),
                 QString(single ? "root user nobody " : "root _apt user nobody "));
    }

    void usrLocalIsTheSandboxesOwn()
    {
        const QString mod = "lizard_iso_" + m_token;
        std::string out;
        QCOMPARE(shIn(m_a, "ls -A /usr/local/bin | wc -l", &out), 0);
        QCOMPARE(out, std::string("0\n")); // never the host's /usr/local
        QVERIFY(m_h.writeFile(
            m_a, "/usr/local/lib/python3.11/dist-packages/" + mod.toStdString() + ".py",
            "X = 42\n"));
        QCOMPARE(shIn(m_a, "python3 -c 'import " + mod + "; print(" + mod + ".X)'", &out), 0);
        QCOMPARE(out, std::string("42\n"));
        QVERIFY(!QFile::exists("/usr/local/lib/python3.11/dist-packages/" + mod + ".py"));
        QVERIFY(shIn(m_b, "python3 -c 'import " + mod + "'") != 0);
    }

    void pipInstallsIntoUsrLocal()
    {
        if (shIn(m_a, "python3 -m pip --version") != 0)
            QSKIP("pip is not installed on this host");
        const QString pkg = "lizpkg" + m_token.left(8);
        const QString script =
            "set -e; mkdir -p /tmp/src/" + pkg +
            "; cd /tmp/src; "
            "printf 'from setuptools import setup\\nsetup(name=\"" +
            pkg + "\", version=\"1.0\", packages=[\"" + pkg +
            "\"])\\n' > setup.py; "
            "echo 'VALUE = 7' > " +
            pkg +
            "/__init__.py; "
            "python3 -m pip install --no-index --no-build-isolation --quiet /tmp/src 2>&1; "
            "cd /; python3 -c 'import " +
            pkg + "; print(" + pkg + ".VALUE, " + pkg + ".__file__)'";
        std::string out;
        QCOMPARE(shIn(m_a, script, &out), 0);
        QVERIFY2(out.find("7 /usr/local/lib/python3") != std::string::npos, out.c_str());
    }

    void sandboxesCannotSeeEachOthersProcesses()
    {
        auto outcome = std::make_shared<lizard::test::ExecOutcome>();
        rt::ExecRequest req;
        req.argv = {"sleep", "417"};
        auto cancel = m_h.startExec(m_a, req, outcome);
        QVERIFY(m_h.runUntil([&] { return outcome->started; }));
        std::string out;
        QVERIFY(shIn(m_b, "pgrep -f '^sleep 417$'", &out) != 0);
        // Only B's own processes: the agent (1), this shell and ps.
        QCOMPARE(shIn(m_b, "ps -e --no-headers | wc -l", &out), 0);
        QVERIFY2(std::stoi(out) <= 4, out.c_str());
        // Signalling A's command from B by its pid fails (no such process in B).
        QVERIFY(shIn(m_b, "kill -9 " + QString::number(outcome->pid)) != 0 || outcome->pid == 0);
        QVERIFY(!outcome->finished);
        cancel->cancel();
    }

    void hostProcessesAreInvisibleAndUnsignalable()
    {
        QProcess host;
        host.start("sleep", {"419"});
        QVERIFY(host.waitForStarted());
        const qint64 pid = host.processId();
        std::string out;
        QVERIFY(shIn(m_a, "pgrep -f '^sleep 419$'", &out) != 0);
        shIn(m_a, QString("kill -9 %1").arg(pid),
             &out); // may name some sandbox pid; never the host's
        QTest::qWait(100);
        QCOMPARE(host.state(), QProcess::Running);
        QCOMPARE(::kill(pid_t(pid), 0), 0);
        host.kill();
        host.waitForFinished();
    }

    void noNetworkWhenNotAsked()
    {
        QCOMPARE(m_a.internetAccess, false);
        std::string out;
        QCOMPARE(shIn(m_a, "ls /sys/class/net 2>/dev/null || ip -o link | cut -d: -f2", &out), 0);
        QCOMPARE(QString::fromStdString(out).simplified(), QString("lo"));
    }

    void networkDoesNotReachHostLoopback()
    {
        if (!m_h.rt().capabilities().network)
            QSKIP("no usable slirp4netns (not installed, or /dev/net/tun not accessible to this "
                  "user)");
        int listener = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        QCOMPARE(::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
        QCOMPARE(::listen(listener, 4), 0);
        socklen_t len = sizeof addr;
        ::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len);
        const int port = ntohs(addr.sin_port);
        auto net = m_h.rt().start(spec("sb_iso_net", 1024, 1024, true));
        QVERIFY2(net, net ? "" : net.error().message.c_str());
        lizard::test::SandboxGuard guard(m_h.rt(), net.value());
        QVERIFY(net.value().internetAccess);
        std::string out;
        QCOMPARE(m_h.sh(net.value(), "cat /sys/class/net/tap0/operstate").exitCode, 0);
        const QString probe =
            QString("python3 -c \"import socket; s=socket.socket(); s.settimeout(2); "
                    "print(s.connect_ex(('10.0.2.2', %1)))\"")
                .arg(port);
        auto r = m_h.sh(net.value(), probe.toStdString());
        m_h.rt().destroy(net.value());
        ::close(listener);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out != "0\n", "the sandbox reached a service on the host's 127.0.0.1");
    }

    void forkBombStopsAtThePidsLimit()
    {
        if (!m_h.rt().capabilities().limits)
            QSKIP(m_h.rt().capabilities().limitsNote.c_str());
        auto bombed = m_h.rt().start(spec("sb_iso_bomb", 64, 512));
        QVERIFY2(bombed, bombed ? "" : bombed.error().message.c_str());
        lizard::test::SandboxGuard guard(m_h.rt(), bombed.value());
        QVERIFY(bombed.value().limitsEnforced);
        rt::ExecRequest req;
        req.argv = {"bash", "-c", "bomb() { bomb | bomb & }; bomb; sleep 5"};
        req.timeoutMs = 3000;
        auto outcome = std::make_shared<lizard::test::ExecOutcome>();
        auto cancel = m_h.startExec(bombed.value(), req, outcome);
        QVERIFY(m_h.runUntil([&] { return outcome->started; }));
        // While it rages, the server side and the other sandboxes keep answering.
        QTest::qWait(500);
        QElapsedTimer t;
        t.start();
        QCOMPARE(m_h.sh(m_a, "echo alive").out, std::string("alive\n"));
        QVERIFY2(t.elapsed() < 2000, qPrintable(QString::number(t.elapsed())));
        const bool v2 = m_h.rt().capabilities().cgroupMode == "v2";
        QFile current(RuntimeHarness::cgroupDir(v2 ? "" : "pids", "sb_iso_bomb") + "/pids.current");
        QVERIFY(current.open(QIODevice::ReadOnly));
        const int inUse = current.readAll().trimmed().toInt();
        QVERIFY2(inUse > 10 && inUse <= 64, qPrintable(QString::number(inUse)));
        QVERIFY(m_h.runUntil([&] { return outcome->finished; }, 20000));
        QCOMPARE(outcome->exitCode, 124);
        m_h.rt().destroy(bombed.value());
    }

    void memoryLimitHolds()
    {
        if (!m_h.rt().capabilities().limits)
            QSKIP(m_h.rt().capabilities().limitsNote.c_str());
        auto small = m_h.rt().start(spec("sb_iso_mem", 256, 128));
        QVERIFY(small);
        lizard::test::SandboxGuard guard(m_h.rt(), small.value());
        auto r = m_h.sh(small.value(), "python3 -c 'a = bytearray(512 << 20); print(len(a))'");
        m_h.rt().destroy(small.value());
        QVERIFY2(r.exitCode != 0, r.out.c_str());
        QVERIFY(r.out.empty());
    }
};

QTEST_GUILESS_MAIN(TestIsolation)
#include "tst_isolation.moc"
