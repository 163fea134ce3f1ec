// The sandbox runtime through its C++ interface: start, exec, processes, signals, files,
// destroy. Skips when this host cannot create user namespaces (fails instead under
// LIZARD_REQUIRE_SANDBOXES=1, as in CI).
#include "tst_runtime_harness.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

using lizard::test::ExecOutcome;
using lizard::test::RuntimeHarness;
namespace rt = lizard::runtime;

class TestRuntime : public QObject
{
    Q_OBJECT

private:
    RuntimeHarness m_h;
    rt::SandboxHandle m_sb;

    rt::SandboxSpec spec(const std::string& id)
    {
        rt::SandboxSpec s;
        s.id = id;
        s.templateName = "base";
        s.limits = {1, 512, 256};
        s.envs = {{"FROM_CREATE", "create"}, {"OVERRIDE_ME", "create"}};
        s.internetAccess = false;
        return s;
    }

private slots:
    void initTestCase()
    {
        QString why;
        QVERIFY2(m_h.init(&why), qPrintable(why));
        const auto& caps = m_h.rt().capabilities();
        qInfo("capabilities: sandboxes=%d cgroup=%s limits=%d fullUidRange=%d network=%d "
              "interpreter=%d (%s)",
              caps.sandboxes, caps.cgroupMode.c_str(), caps.limits, caps.fullUidRange, caps.network,
              caps.interpreterTemplate, caps.interpreterMissing.c_str());
        if (!caps.sandboxes)
            LIZ_NO_SANDBOX(true, QString::fromStdString(caps.sandboxesError));
        QElapsedTimer t;
        t.start();
        auto started = m_h.rt().start(spec("sb_rt_main"));
        QVERIFY2(started, started ? "" : started.error().message.c_str());
        qInfo("start() took %lld ms", t.elapsed());
        m_sb = started.value();
    }

    void cleanupTestCase()
    {
        if (m_sb.initPid > 0)
            m_h.rt().destroy(m_sb);
    }

    void handleDescribesARunningSandbox()
    {
        QVERIFY(m_sb.initPid > 0);
        QVERIFY(m_sb.initStartTime > 0);
        QVERIFY(QFileInfo(QString::fromStdString(m_sb.socketPath)).exists());
        QCOMPARE(m_sb.internetAccess, false); // not asked for
        QCOMPARE(m_sb.limitsEnforced, m_h.rt().capabilities().limits);
        QVERIFY(m_h.rt().isAlive(m_sb));
        rt::SandboxHandle wrongStart = m_sb;
        wrongStart.initStartTime += 1; // a recycled pid must not pass for the sandbox
        QVERIFY(!m_h.rt().isAlive(wrongStart));
    }

    void exec_data()
    {
        QTest::addColumn<QStringList>("argv");
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("out");
        QTest::addColumn<QString>("err");
        QTest::addColumn<int>("code");
        QTest::newRow("echo") << QStringList{"echo", "hello"} << "root"
                              << "hello\n"
                              << "" << 0;
        QTest::newRow("argv is not interpreted") << QStringList{"echo", "$HOME;", "`id`"} << "root"
                                                 << "$HOME; `id`\n"
                                                 << "" << 0;
        QTest::newRow("separate streams")
            << QStringList{"sh", "-c", "echo out; echo err >&2; exit 7"} << "root"
            << "out\n"
            << "err\n"
            << 7;
        QTest::newRow("false") << QStringList{"false"} << "root"
                               << ""
                               << "" << 1;
        QTest::newRow("killed by signal") << QStringList{"sh", "-c", "kill -9 $$"} << "root"
                                          << ""
                                          << "" << 137;
        QTest::newRow("root home")
            << QStringList{"sh", "-c", "pwd; echo $HOME $USER $LANG"} << "root"
            << "/root\n/root root C.UTF-8\n"
            << "" << 0;
        QTest::newRow("user home") << QStringList{"sh", "-c", "pwd; echo $HOME $USER"} << "user"
                                   << "/home/user\n/home/user user\n"
                                   << "" << 0;
        QTest::newRow("create envs")
            << QStringList{"sh", "-c", "echo $FROM_CREATE $OVERRIDE_ME $FROM_REQUEST"} << "root"
            << "create request req\n"
            << "" << 0;
        QTest::newRow("path has /usr/local")
            << QStringList{"sh", "-c", "echo $PATH"} << "root"
            << "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n"
            << "" << 0;
        QTest::newRow("hostname") << QStringList{"hostname"} << "root"
                                  << "lizard\n"
                                  << "" << 0;
    }

    void exec()
    {
        QFETCH(QStringList, argv);
        QFETCH(QString, user);
        QFETCH(QString, out);
        QFETCH(QString, err);
        QFETCH(int, code);
        rt::ExecRequest req;
        for (const auto& a : argv)
            req.argv.push_back(a.toStdString());
        req.user = user.toStdString();
        req.env = {{"OVERRIDE_ME", "request"}, {"FROM_REQUEST", "req"}};
        ExecOutcome r = m_h.exec(m_sb, req);
        QVERIFY2(!r.error, r.error ? r.error->message.c_str() : "");
        QVERIFY(r.started && r.pid > 1);
        QCOMPARE(QString::fromStdString(r.out), out);
        QCOMPARE(QString::fromStdString(r.err), err);
        QCOMPARE(r.exitCode, code);
        QVERIFY(!r.timedOut);
    }

    void execAsUserHasItsUid()
    {
        ExecOutcome r = m_h.sh(m_sb, "id -u; id -g", "user");
        QCOMPARE(r.exitCode, 0);
        const bool full = m_h.rt().capabilities().fullUidRange;
        QCOMPARE(QString::fromStdString(r.out), full ? QString("1000\n1000\n") : QString("0\n0\n"));
    }

    void execErrors_data()
    {
        QTest::addColumn<QStringList>("argv");
        QTest::addColumn<QString>("cwd");
        QTest::addColumn<QString>("user");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("code");
        QTest::newRow("unknown command") << QStringList{"no-such-command"} << ""
                                         << "root" << 400 << "SPAWN_FAILED";
        QTest::newRow("missing cwd") << QStringList{"true"} << "/no/such/dir"
                                     << "root" << 404 << "NOT_FOUND";
        QTest::newRow("unknown user") << QStringList{"true"} << ""
                                      << "mallory" << 400 << "UNKNOWN_USER";
    }

    void execErrors()
    {
        QFETCH(QStringList, argv);
        QFETCH(QString, cwd);
        QFETCH(QString, user);
        QFETCH(int, status);
        QFETCH(QString, code);
        rt::ExecRequest req;
        for (const auto& a : argv)
            req.argv.push_back(a.toStdString());
        req.cwd = cwd.toStdString();
        req.user = user.toStdString();
        ExecOutcome r = m_h.exec(m_sb, req);
        QVERIFY(r.error.has_value());
        QCOMPARE(lizard::http::httpStatus(r.error->kind), status);
        QCOMPARE(QString::fromStdString(r.error->code), code);
        QVERIFY(!r.error->message.empty());
    }

    void timeoutKillsTheTree()
    {
        rt::ExecRequest req;
        req.argv = {"sh", "-c", "sleep 101 & sleep 102 & echo started; wait"};
        req.timeoutMs = 700;
        QElapsedTimer t;
        t.start();
        ExecOutcome r = m_h.exec(m_sb, req);
        QCOMPARE(r.exitCode, 124);
        QVERIFY(r.timedOut);
        QCOMPARE(QString::fromStdString(r.out), QString("started\n"));
        QVERIFY2(t.elapsed() < 5000, qPrintable(QString::number(t.elapsed())));
        QCOMPARE(m_h.sh(m_sb, "pgrep -f '^sleep 10[12]$'").exitCode, 1); // nothing left
    }

    void processesAndSignalKillTheTree()
    {
        auto outcome = std::make_shared<ExecOutcome>();
        rt::ExecRequest req;
        req.argv = {"sh", "-c", "sleep 201 & sleep 202 & wait"};
        req.cwd = "/tmp";
        auto cancel = m_h.startExec(m_sb, req, outcome);
        QVERIFY(m_h.runUntil([&] { return outcome->started; }));
        auto list = m_h.request(m_sb, {{"op", "processes"}});
        QVERIFY(list);
        bool found = false;
        for (const auto& p : list.value()["processes"]) {
            if (p["pid"] == outcome->pid) {
                found = true;
                QVERIFY(p["cmd"] == nlohmann::json(req.argv));
                QCOMPARE(p["cwd"].get<std::string>(), std::string("/tmp"));
                QVERIFY(p["startedAt"].get<long long>() > 0);
            }
        }
        QVERIFY(found);
        QVERIFY(m_h.runUntil(
            [&] { return m_h.sh(m_sb, "pgrep -f '^sleep 20[12]$' | wc -l").out == "2\n"; }, 5000));
        auto sig =
            m_h.request(m_sb, {{"op", "signal"}, {"pid", outcome->pid}, {"signal", "SIGTERM"}});
        QVERIFY2(sig, sig ? "" : sig.error().message.c_str());
        QVERIFY(m_h.runUntil([&] { return outcome->finished; }, 10000));
        QCOMPARE(outcome->exitCode, 128 + SIGTERM);
        QCOMPARE(m_h.sh(m_sb, "pgrep -f '^sleep 20[12]$'").exitCode, 1);
        auto after = m_h.request(m_sb, {{"op", "processes"}});
        QVERIFY(after);
        for (const auto& p : after.value()["processes"])
            QVERIFY(p["pid"] != outcome->pid);
    }

    void signalUnknownPidIsNotFound()
    {
        auto r = m_h.request(m_sb, {{"op", "signal"}, {"pid", 1}, {"signal", "SIGKILL"}});
        QVERIFY(!r);
        QCOMPARE(lizard::http::httpStatus(r.error().kind), 400);
        r = m_h.request(m_sb, {{"op", "signal"}, {"pid", 99999}, {"signal", "SIGKILL"}});
        QVERIFY(!r);
        QCOMPARE(r.error().code, std::string("NO_SUCH_PROCESS"));
        QCOMPARE(lizard::http::httpStatus(r.error().kind), 404);
    }

    void disconnectKillsTheTree()
    {
        auto outcome = std::make_shared<ExecOutcome>();
        rt::ExecRequest req;
        req.argv = {"sh", "-c", "sleep 301 & sleep 302; wait"};
        auto cancel = m_h.startExec(m_sb, req, outcome);
        QVERIFY(m_h.runUntil([&] { return outcome->started; }));
        QVERIFY(m_h.runUntil(
            [&] { return m_h.sh(m_sb, "pgrep -f '^sleep 30[12]$' | wc -l").out == "2\n"; }, 5000));
        cancel->cancel();
        QVERIFY(m_h.runUntil(
            [&] { return m_h.sh(m_sb, "pgrep -f '^sleep 30[12]$'").exitCode == 1; }, 5000));
        QVERIFY(!outcome->finished); // no callbacks after cancel
    }

    void concurrentExecsGetTheirOwnExitCodes()
    {
        std::vector<std::shared_ptr<ExecOutcome>> outcomes;
        std::vector<std::shared_ptr<rt::Cancel>> cancels;
        for (int i = 0; i < 24; ++i) {
            auto o = std::make_shared<ExecOutcome>();
            rt::ExecRequest req;
            req.argv = {"sh", "-c",
                        "sleep 0.0" + std::to_string(i % 10) + "; echo " + std::to_string(i) +
                            "; exit " + std::to_string(i)};
            cancels.push_back(m_h.startExec(m_sb, req, o));
            outcomes.push_back(o);
        }
        QVERIFY(m_h.runUntil([&] {
            for (auto& o : outcomes)
                if (!o->finished)
                    return false;
            return true;
        }));
        for (int i = 0; i < 24; ++i) {
            QCOMPARE(outcomes[i]->exitCode, i);
            QCOMPARE(outcomes[i]->out, std::to_string(i) + "\n");
        }
    }

    void largeOutputIsExactAndFast()
    {
        rt::ExecRequest req;
        const int mb = 200;
        req.argv = {"sh", "-c", "head -c " + std::to_string(mb) + "M /dev/zero; echo tail >&2"};
        auto outcome = std::make_shared<ExecOutcome>();
        std::size_t bytes = 0;
        bool allZero = true;
        QElapsedTimer t;
        t.start();
        rt::AgentClient client(m_h.io().get_executor(), m_sb.socketPath);
        rt::ExecHandlers handlers;
        handlers.onOutput = [&](rt::OutStream s, std::string_view chunk,
                                std::function<void()> resume) {
            if (s == rt::OutStream::Stdout) {
                bytes += chunk.size();
                allZero = allZero && chunk.find_first_not_of('\0') == std::string_view::npos;
            } else {
                outcome->err.append(chunk);
            }
            resume();
        };
        handlers.onExit = [&](int code, bool) {
            outcome->exitCode = code;
            outcome->finished = true;
        };
        handlers.onError = [&](const lizard::Error& e) {
            outcome->error = e;
            outcome->finished = true;
        };
        auto c = client.exec(req, handlers);
        QVERIFY(m_h.runUntil([&] { return outcome->finished; }, 120000));
        const double seconds = double(t.nsecsElapsed()) / 1e9;
        qInfo("%d MB of output in %.3f s = %.0f MB/s", mb, seconds, mb / seconds);
        QCOMPARE(outcome->exitCode, 0);
        QCOMPARE(bytes, std::size_t(mb) * 1024 * 1024);
        QVERIFY(allZero);
        QCOMPARE(outcome->err, std::string("tail\n"));
    }

    void execRoundTripIsQuick()
    {
        rt::ExecRequest req;
        req.argv = {"true"};
        QElapsedTimer t;
        t.start();
        const int n = 20;
        for (int i = 0; i < n; ++i)
            QCOMPARE(m_h.exec(m_sb, req).exitCode, 0);
        qInfo("exec of true: %.2f ms per round trip", double(t.elapsed()) / n);
    }

    void binaryFilesRoundTripExactly()
    {
        std::string bytes;
        for (int i = 0; i < 256; ++i)
            bytes.push_back(char(i));
        std::string big(3 * 1024 * 1024 + 17, '\0');
        for (auto& c : big)
            c = char(QRandomGenerator::global()->generate() & 0xff);
        for (const auto& [path, content] : {std::pair{std::string("/tmp/bin/all-bytes"), bytes},
                                            std::pair{std::string("/root/deep/er/big.bin"), big},
                                            std::pair{std::string("/tmp/empty"), std::string()}}) {
            auto w = m_h.writeFile(m_sb, path, content);
            QVERIFY2(w, w ? "" : w.error().message.c_str());
            auto r = m_h.readFile(m_sb, path);
            QVERIFY2(r, r ? "" : r.error().message.c_str());
            QVERIFY(r.value() == content);
        }
        QCOMPARE(m_h.sh(m_sb, "sha256sum < /root/deep/er/big.bin | cut -c1-64").out.size(),
                 std::size_t(65));
    }

    void fileErrors_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("code");
        QTest::newRow("read missing") << "read"
                                      << "/tmp/nope" << 404 << "NOT_FOUND";
        QTest::newRow("read dir") << "read"
                                  << "/etc" << 400 << "IS_A_DIRECTORY";
        QTest::newRow("read relative") << "read"
                                       << "etc/passwd" << 400 << "INVALID_ARGUMENT";
        QTest::newRow("stat missing") << "stat"
                                      << "/nope" << 404 << "NOT_FOUND";
        QTest::newRow("list missing") << "list"
                                      << "/nope" << 404 << "NOT_FOUND";
        QTest::newRow("list file") << "list"
                                   << "/etc/passwd" << 400 << "NOT_A_DIRECTORY";
        QTest::newRow("remove missing") << "remove"
                                        << "/tmp/nope" << 404 << "NOT_FOUND";
        QTest::newRow("remove root") << "remove"
                                     << "/" << 400 << "INVALID_ARGUMENT";
    }

    void fileErrors()
    {
        QFETCH(QString, op);
        QFETCH(QString, path);
        QFETCH(int, status);
        QFETCH(QString, code);
        lizard::Error e;
        if (op == "read") {
            auto r = m_h.readFile(m_sb, path.toStdString());
            QVERIFY(!r);
            e = r.error();
        } else {
            auto r = m_h.request(m_sb, {{"op", op.toStdString()}, {"path", path.toStdString()}});
            QVERIFY(!r);
            e = r.error();
        }
        QCOMPARE(QString::fromStdString(e.code), code);
        QCOMPARE(lizard::http::httpStatus(e.kind), status);
    }

    void listStatMoveRemove()
    {
        QVERIFY(m_h.writeFile(m_sb, "/home/user/work/a.txt", "hello", "user"));
        QVERIFY(m_h.request(
            m_sb, {{"op", "mkdir"}, {"path", "/home/user/work/sub/dir"}, {"user", "user"}}));
        auto list = m_h.request(m_sb, {{"op", "list"}, {"path", "/home/user/work"}});
        QVERIFY(list);
        const auto& entries = list.value()["entries"];
        QCOMPARE(entries.size(), std::size_t(2));
        QCOMPARE(entries[0]["name"].get<std::string>(), std::string("a.txt"));
        QCOMPARE(entries[0]["type"].get<std::string>(), std::string("file"));
        QCOMPARE(entries[0]["size"].get<int>(), 5);
        QCOMPARE(entries[0]["path"].get<std::string>(), std::string("/home/user/work/a.txt"));
        QCOMPARE(entries[0]["mode"].get<std::string>(), std::string("0644"));
        QCOMPARE(entries[0]["permissions"].get<std::string>(), std::string("-rw-r--r--"));
        const std::string owner = m_h.rt().capabilities().fullUidRange ? "user" : "root";
        QCOMPARE(entries[0]["owner"].get<std::string>(), owner);
        QVERIFY(entries[0]["modTime"].get<long long>() > 1600000000000LL);
        QCOMPARE(entries[1]["type"].get<std::string>(), std::string("dir"));

        QCOMPARE(m_h.sh(m_sb, "ln -s /etc/hostname /tmp/link").exitCode, 0);
        auto st = m_h.request(m_sb, {{"op", "stat"}, {"path", "/tmp/link"}});
        QVERIFY(st);
        QCOMPARE(st.value()["entry"]["type"].get<std::string>(), std::string("symlink"));
        QCOMPARE(st.value()["entry"]["symlinkTarget"].get<std::string>(),
                 std::string("/etc/hostname"));

        QVERIFY(m_h.request(m_sb, {{"op", "move"},
                                   {"from", "/home/user/work/a.txt"},
                                   {"to", "/home/user/new/place/b.txt"}}));
        QCOMPARE(m_h.readFile(m_sb, "/home/user/new/place/b.txt").value(), std::string("hello"));
        QVERIFY(!m_h.readFile(m_sb, "/home/user/work/a.txt"));
        // Across mounts (/tmp is on the root overlay, /usr/local on its own).
        QVERIFY(m_h.writeFile(m_sb, "/tmp/cross.txt", "across"));
        auto moved = m_h.request(
            m_sb,
            {{"op", "move"}, {"from", "/tmp/cross.txt"}, {"to", "/usr/local/share/x/cross.txt"}});
        QVERIFY2(moved, moved ? "" : moved.error().message.c_str());
        QCOMPARE(m_h.readFile(m_sb, "/usr/local/share/x/cross.txt").value(), std::string("across"));

        QVERIFY(m_h.request(m_sb, {{"op", "remove"}, {"path", "/home/user/work"}}));
        QCOMPARE(lizard::http::httpStatus(
                     m_h.request(m_sb, {{"op", "stat"}, {"path", "/home/user/work"}}).error().kind),
                 404);
    }

    void userCannotWriteRootFiles()
    {
        auto w = m_h.writeFile(m_sb, "/root/not-yours", "x", "user");
        if (!m_h.rt().capabilities().fullUidRange)
            QSKIP("only uid 0 is mapped: user is root");
        QVERIFY(!w);
        QCOMPARE(lizard::http::httpStatus(w.error().kind), 403);
        QVERIFY(!m_h.readFile(m_sb, "/root/deep/er/big.bin", "user"));
    }

    void destroyLeavesNothing()
    {
        auto started = m_h.rt().start(spec("sb_rt_destroy"));
        QVERIFY2(started, started ? "" : started.error().message.c_str());
        const auto h = started.value();
        lizard::test::SandboxGuard guard(m_h.rt(), h); // destroy is idempotent
        QCOMPARE(m_h.sh(h, "sleep 1000 >/dev/null 2>&1 & echo ok").out, std::string("ok\n"));
        const QString dir = QString::fromStdString(m_h.dataDir() + "/sandboxes/" + h.id);
        QVERIFY(QFileInfo(dir).isDir());
        if (h.limitsEnforced)
            QVERIFY(!RuntimeHarness::cgroupDir(
                         m_h.rt().capabilities().cgroupMode == "v2" ? "" : "pids", h.id)
                         .isEmpty());
        m_h.rt().destroy(h);
        QVERIFY(!m_h.rt().isAlive(h));
        auto st = QFile::exists(QString("/proc/%1").arg(h.initPid));
        if (st) { // a zombie whose parent does not reap is dead too
            QFile stat(QString("/proc/%1/stat").arg(h.initPid));
            QVERIFY(stat.open(QIODevice::ReadOnly));
            const QByteArray s = stat.readAll();
            QVERIFY2(s.mid(s.lastIndexOf(')') + 2, 1) == "Z", s.constData());
        }
        QVERIFY(!QFileInfo(dir).exists());
        QVERIFY(!QFileInfo(QString::fromStdString(h.socketPath)).exists());
        for (const char* ctrl : {"memory", "pids", "cpu", "freezer", ""})
            QCOMPARE(RuntimeHarness::cgroupDir(ctrl, h.id), QString());
        QFile mounts("/proc/self/mountinfo");
        QVERIFY(mounts.open(QIODevice::ReadOnly));
        QVERIFY(!mounts.readAll().contains(h.id.c_str()));
        m_h.rt().destroy(h);             // idempotent
        QVERIFY(m_h.rt().isAlive(m_sb)); // the other sandbox is untouched
    }

    // How the layer is bounded follows the host: an image as root, the quota file system for an
    // ordinary user where /dev/fuse is open to every user (desktops), else the watch. With the
    // quota: ENOSPC past the size (a smaller write first), df shows the size, and the daemon
    // ends with the sandbox.
    void diskBoundFollowsTheHost()
    {
        const auto& caps = m_h.rt().capabilities();
        struct stat dev
        {
        };
        const bool fuse = !qEnvironmentVariableIsSet("LIZARD_TEST_NO_FUSE") &&
                          ::stat("/dev/fuse", &dev) == 0 && (dev.st_mode & 0006) == 0006;
        if (::geteuid() == 0)
            QSKIP("lizard-local as root bounds disks by images where it can (tst_sec_disk)");
        QCOMPARE(QString::fromStdString(caps.diskBound),
                 fuse ? QString("quota") : QString("watch"));
        if (!fuse)
            QSKIP("/dev/fuse is not open to this user (root's 0600): the disk watch bounds the "
                  "layer (tst_sec_disk)");
        auto s = spec("sb_rt_quota");
        s.diskGb = 1;
        auto started = m_h.rt().start(s);
        QVERIFY2(started, started ? "" : started.error().message.c_str());
        const auto h = started.value();
        lizard::test::SandboxGuard guard(m_h.rt(), h);
        QCOMPARE(QString::fromStdString(m_h.rt().diskState(h.id).enforcedBy), QString("quota"));
        auto r = m_h.sh(h, "dd if=/dev/zero of=/root/ok bs=1M count=50 2>/dev/null && echo ok");
        QCOMPARE(r.out, std::string("ok\n")); // control
        r = m_h.sh(h, "df -k --output=size,itotal / | tail -1 | tr -s ' ' | sed 's/^ //'");
        QVERIFY2(r.out == "1048576 65536\n", r.out.c_str());
        r = m_h.sh(h, "dd if=/dev/zero of=/root/bomb bs=1M count=1200; echo status $?");
        QVERIFY2(r.err.find("No space left on device") != std::string::npos &&
                     r.out == "status 1\n",
                 (r.out + r.err).c_str());
        r = m_h.sh(h, "rm /root/bomb && echo x > /root/after && cat /root/after");
        QCOMPARE(r.out, std::string("x\n"));
        const std::string dir = m_h.dataDir() + "/sandboxes/" + h.id;
        QFile pidFile(QString::fromStdString(dir + "/quotafs.pid"));
        QVERIFY(pidFile.open(QIODevice::ReadOnly));
        const pid_t daemon =
            pid_t(QString::fromLatin1(pidFile.readAll()).section(' ', 0, 0).toInt());
        // Running: its /proc entry exists and is no zombie (init reaps it once it ended).
        const auto running = [daemon] {
            QFile stat(QString("/proc/%1/stat").arg(daemon));
            if (!stat.open(QIODevice::ReadOnly))
                return false;
            const QByteArray line = stat.readAll();
            return line.mid(line.lastIndexOf(')') + 2, 1) != "Z";
        };
        QVERIFY(daemon > 0 && running());
        m_h.rt().destroy(h);
        QTRY_VERIFY_WITH_TIMEOUT(!running(), 5000);
        QVERIFY(!QFileInfo(QString::fromStdString(dir)).exists());
    }

    void startErrors_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("templateName");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("code");
        QTest::newRow("unknown template") << "sb_t1"
                                          << "gpu" << 400 << "INVALID_TEMPLATE";
        QTest::newRow("path in id") << "../evil"
                                    << "base" << 400 << "INVALID_ARGUMENT";
        QTest::newRow("duplicate id") << "sb_rt_main"
                                      << "base" << 409 << "CONFLICT";
    }

    void startErrors()
    {
        QFETCH(QString, id);
        QFETCH(QString, templateName);
        QFETCH(int, status);
        QFETCH(QString, code);
        auto s = spec(id.toStdString());
        s.templateName = templateName.toStdString();
        auto r = m_h.rt().start(s);
        QVERIFY(!r);
        QCOMPARE(lizard::http::httpStatus(r.error().kind), status);
        QCOMPARE(QString::fromStdString(r.error().code), code);
        QVERIFY(m_h.rt().isAlive(m_sb)); // a failed start never harms the running one
    }

    void cleanupOrphansRemovesUnknownSandboxes()
    {
        auto started = m_h.rt().start(spec("sb_rt_orphan"));
        QVERIFY(started);
        lizard::test::SandboxGuard guard(m_h.rt(), started.value()); // destroy is idempotent
        m_h.rt().cleanupOrphans({m_sb.id});
        QVERIFY(!m_h.rt().isAlive(started.value()));
        QVERIFY(
            !QFileInfo(QString::fromStdString(m_h.dataDir() + "/sandboxes/sb_rt_orphan")).exists());
        QVERIFY(m_h.rt().isAlive(m_sb));
    }
};

QTEST_GUILESS_MAIN(TestRuntime)
#include "tst_runtime.moc"
