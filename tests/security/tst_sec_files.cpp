// Escape attempts through the file system and the files API: host files, path tricks,
// symlinks and /proc magic links, the host's /proc and /sys, read-only mounts, the
// environment. Each attempt sits beside a harmless control that must succeed.
#include "escape_support.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QUrl>
#include <unistd.h>

using namespace lizard::test;

class TestSecFiles : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    QString m_id;
    QString m_hostSecret; // a file on the host no sandbox may read

    QString base() const { return "/api/sandboxes/" + m_id; }
    LocalServer::Response get(const QString& what, const QString& path) const
    {
        return m_server.request("GET", base() + what + "?path=" +
                                           QString::fromUtf8(QUrl::toPercentEncoding(path, "/")));
    }
    ProbeResult sh(const QString& cmd, const QString& user = {}) const
    {
        return runShell(m_server, m_id, cmd, user);
    }
    // No answer of the API may name the server's data directory, where its logs and keys are.
    void verifyNoHostPath(const LocalServer::Response& r) const
    {
        QVERIFY2(!r.body.contains(m_server.dataDir().toUtf8()), qPrintable(describe(r)));
    }

private slots:
    void initTestCase()
    {
        qputenv("LIZARD_ESCAPE_MARKER", "host-environment-must-not-leak");
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        QString why;
        m_id = createSandbox(m_server, {{"templateId", "base"}}, &why);
        QVERIFY2(!m_id.isEmpty(), qPrintable(why));
        m_hostSecret =
            QDir::tempPath() + "/lizard-escape-secret-" + QString::number(qApp->applicationPid());
        QFile f(m_hostSecret);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("host-secret-content");
    }

    void cleanupTestCase()
    {
        QFile::remove(m_hostSecret);
        if (!m_id.isEmpty())
            m_server.request("DELETE", base());
    }

    void hostFilesAreNotVisible()
    {
        QCOMPARE(get("/files", m_hostSecret).status, 404);
        const ProbeResult cat = sh("cat " + m_hostSecret + " /etc/shadow " + m_server.dataDir() +
                                   "/api-key 2>&1; true");
        QVERIFY2(!cat.out.contains("host-secret-content") && !cat.out.contains("liz_"),
                 qPrintable(cat.describe()));
        // Control: a file the sandbox writes reads back through the API.
        QVERIFY(sh("echo sandbox-own > /tmp/own.txt").exitCode == 0);
        QCOMPARE(get("/files", "/tmp/own.txt").body, QByteArray("sandbox-own\n"));
    }

    void pathTricksStayInside()
    {
        // ../ cannot climb above the sandbox's root: it names the sandbox's own files.
        const auto up = get("/files", "/tmp/../../../../etc/hostname");
        const ProbeResult hostname = sh("cat /etc/hostname");
        QCOMPARE(up.status, 200);
        QCOMPARE(up.body, hostname.out.toUtf8());
        const auto encoded = m_server.request(
            "GET", base() + "/files?path=%2Ftmp%2F%2E%2E%2F%2E%2E%2Fetc%2Fhostname");
        QCOMPARE(encoded.body, hostname.out.toUtf8());
        // NUL and relative paths are refused as bad input, not truncated.
        QCOMPARE(m_server.request("GET", base() + "/files?path=/tmp/own.txt%00.png").status, 400);
        QCOMPARE(m_server.request("GET", base() + "/files?path=etc/hostname").status, 400);
    }

    void symlinksOutOfTheRootAreRefused()
    {
        QVERIFY(sh("ln -sf / /tmp/to-root; ln -sf /proc/1/root /tmp/to-pid1-root; "
                   "ln -sf /proc/self/fd /tmp/to-self-fd; ln -sf /tmp/own.txt /tmp/plain-link")
                    .exitCode == 0);
        // A link to / is the sandbox's own root: allowed, and it is the sandbox's file.
        QCOMPARE(get("/files", "/tmp/to-root/tmp/own.txt").body, QByteArray("sandbox-own\n"));
        QCOMPARE(get("/files", "/tmp/plain-link").body, QByteArray("sandbox-own\n"));
        QCOMPARE(
            jsonObject(get("/files/stat", "/tmp/plain-link")).value("symlinkTarget").toString(),
            QString("/tmp/own.txt"));
        // Magic links lead to PID 1's files, its log on the host among them: refused.
        for (const QString& path :
             {QString("/proc/self/fd/2"), QString("/proc/1/fd/2"),
              QString("/proc/self/root/etc/hostname"), QString("/tmp/to-self-fd/2"),
              QString("/tmp/to-pid1-root/etc/hostname"), QString("/proc/self/cwd/etc/hostname")}) {
            const auto r = get("/files", path);
            QVERIFY2(isError(r, 400, "PERMISSION_DENIED") && r.body.contains("/proc link"),
                     qPrintable(path + ": " + describe(r)));
            verifyNoHostPath(r);
        }
        const auto write = m_server.request(
            "POST", base() + "/files",
            toJson({{"path", "/proc/self/root/tmp/written.txt"}, {"content", "x"}}));
        QVERIFY2(isError(write, 400, "PERMISSION_DENIED"), qPrintable(describe(write)));
        // Listing and stat show no magic link's target (it is a host path).
        const auto list = get("/files/list", "/proc/self/fd");
        QCOMPARE(list.status, 200);
        verifyNoHostPath(list);
        for (const auto& v : jsonArray(list))
            QVERIFY2(!v.toObject().contains("symlinkTarget"), qPrintable(describe(list)));
        const auto stat = get("/files/stat", "/proc/self/fd/2");
        QCOMPARE(stat.status, 200);
        QVERIFY2(!jsonObject(stat).contains("symlinkTarget"), qPrintable(describe(stat)));
        verifyNoHostPath(stat);
        QCOMPARE(get("/files/stat", "/proc/self/root/etc").status, 400);
    }

    void hostKernelFilesAreMasked()
    {
        // Hidden: each reads as empty. Control: /proc/meminfo and the sandbox's own status read.
        const ProbeResult masked =
            sh("for f in /proc/kcore /proc/keys /proc/timer_list /proc/sched_debug; do "
               "[ -e $f ] && printf '%s=%s\\n' $f $(head -c 64 $f | wc -c); done; "
               "ls -A /sys/firmware /proc/acpi /proc/scsi 2>/dev/null | grep -v ':$' | grep -c . ; "
               "true");
        QVERIFY2(masked.exitCode == 0, qPrintable(masked.describe()));
        for (const QString& line : masked.out.trimmed().split('\n')) {
            QVERIFY2(line.endsWith("=0") || line == "0", qPrintable(masked.describe()));
        }
        const ProbeResult control =
            sh("head -c 64 /proc/meminfo | wc -c; grep -c . /proc/self/status");
        QVERIFY2(control.out.section('\n', 0, 0).trimmed().toInt() == 64,
                 qPrintable(control.describe()));
        // Read-only: kernel tunables, SysRq, /sys.
        const ProbeResult writes = sh("echo 1 > /proc/sys/kernel/ns_last_pid && echo wrote-sys; "
                                      "echo h > /proc/sysrq-trigger && echo wrote-sysrq; "
                                      "touch /sys/lizard-probe 2>/dev/null && echo wrote-sysfs; "
                                      "cat /proc/sys/kernel/hostname >/dev/null && echo read-ok");
        QVERIFY2(!writes.out.contains("wrote"), qPrintable(writes.describe()));
        QVERIFY2(writes.out.contains("read-ok"), qPrintable(writes.describe()));
    }

    void readOnlyMountsCannotBeRemounted()
    {
        // /proc/sys is a read-only bind (kernelmasks.cpp). /usr is a copy-on-write overlay: the
        // sandbox may write there, the host's /usr is its lower layer and never written.
        const ProbeResult remount =
            sh("mount -o remount,bind,rw /proc/sys 2>&1; echo rc=$?; "
               "awk '$2 == \"/proc/sys\" { split($4, o, \",\"); print \"flag=\" o[1] }' "
               "/proc/self/mounts; touch /usr/lizard-probe 2>&1; "
               "mount -t tmpfs none /mnt 2>&1; echo tmpfs=$?; mount -t "
               "cgroup2 none /mnt 2>&1; echo cgroup=$?");
        QVERIFY2(!remount.out.contains("rc=0") && remount.out.contains("flag=ro") &&
                     !remount.out.contains("flag=rw") && !remount.out.contains("tmpfs=0") &&
                     !remount.out.contains("cgroup=0"),
                 qPrintable(remount.describe()));
        QVERIFY(!QFile::exists("/usr/lizard-probe"));
        // Control: the writable places are writable.
        QCOMPARE(sh("touch /tmp/probe /usr/local/probe /home/user/probe && echo ok").out.trimmed(),
                 QString("ok"));
    }

    void hostUsrIsNeverWritten()
    {
        // As root, the host's /usr lies idmapped below the sandbox's /usr (hostusr.h), so its
        // files belong to the sandbox's root there: each change must land in the sandbox's
        // own layer, and the idmapped mount itself must be out of reach.
        const QString file = "/usr/share/common-licenses/Apache-2.0";
        QFile host(file);
        QVERIFY2(host.open(QIODevice::ReadOnly), qPrintable(file));
        const QByteArray content = host.readAll();
        const QDateTime changed = QFileInfo(file).metadataChangeTime();
        const QFileDevice::Permissions mode = QFileInfo(file).permissions();
        const ProbeResult attempt =
            sh("f=" + file +
               "; echo lizard-probe >> $f; tail -n 1 $f; chmod 600 $f; "
               "ln $f /usr/share/lizard-link; mv $f /usr/share/lizard-moved; "
               "touch /usr/bin/lizard-new; echo idmapped=$(grep -c idmapped /proc/self/mountinfo)");
        QVERIFY2(attempt.out.contains("idmapped=0"), qPrintable(attempt.describe()));
        host.seek(0);
        QCOMPARE(host.readAll(), content);
        QCOMPARE(QFileInfo(file).metadataChangeTime(), changed);
        QCOMPARE(QFileInfo(file).permissions(), mode);
        for (const QString& made :
             {"/usr/share/lizard-link", "/usr/share/lizard-moved", "/usr/bin/lizard-new"})
            QVERIFY2(!QFile::exists(made), qPrintable(made));
        // Control: the sandbox's own copy took the changes (as root; an ordinary user's server
        // cannot idmap, and there the host's files stay unwritable in the sandbox too).
        QCOMPARE(sh("test -e /usr/bin/lizard-new && echo made").out, QStringLiteral("made\n"));
        if (::geteuid() == 0 && m_server.serverUser().isEmpty())
            QCOMPARE(sh("tail -n 1 /usr/share/lizard-moved; stat -c %a /usr/share/lizard-link").out,
                     QStringLiteral("lizard-probe\n600\n"));
    }

    void mountsAreLockedEvenWithoutTheFilter()
    {
        // Enter the sandbox's namespaces from the host, with every capability there and no
        // seccomp filter: only the kernel's mount lock is left to refuse the remount.
        QByteArray seen;
        const QString id = createSandbox(m_server, {{"templateId", "base"}});
        QVERIFY(!id.isEmpty());
        const qint64 pid = agentHostPid(m_server, id, seen);
        QVERIFY2(pid > 0, seen.right(2000).constData());
        QProcess p;
        p.start("nsenter", {"-t", QString::number(pid), "-U", "-m", "-r", "-w", "/bin/sh", "-c",
                            "mount -o remount,bind,rw /proc/sys 2>&1; echo sys=$?; "
                            "mount -o remount,bind,suid /proc/sys 2>&1; echo suid=$?; umount -l "
                            "/proc/sys 2>&1; echo umount=$?; "
                            "mount -t tmpfs none /mnt && echo tmpfs-ok && umount /mnt"});
        QVERIFY(p.waitForFinished(30000));
        const QString out = QString::fromUtf8(p.readAll());
        m_server.request("DELETE", "/api/sandboxes/" + id);
        QVERIFY2(out.contains("sys=") && !out.contains("sys=0") && !out.contains("suid=0") &&
                     !out.contains("umount=0"),
                 qPrintable(out));
        QVERIFY2(out.contains("tmpfs-ok"), qPrintable(out)); // control: the capabilities were there
    }

    // The Changes routes read a sandbox's layers on the host, outside its mount namespace: a
    // link the sandbox made there must never be followed.
    void layerReadsFollowNoLink()
    {
        QVERIFY(sh("mkdir -p /root/layer && ln -s / /root/layer/up && ln -s " + m_hostSecret +
                   " /root/layer/secret && ln -s /etc /root/layer/etc && "
                   "echo plain > /root/layer/plain")
                    .exitCode == 0);
        const auto made = m_server.request("POST", base() + "/snapshot", "{\"name\":\"links\"}");
        const QString snap = jsonObject(made).value("id").toString();
        QVERIFY2(!snap.isEmpty(), qPrintable(describe(made)));
        QTRY_VERIFY_WITH_TIMEOUT(
            jsonObject(m_server.request("GET", "/api/sandbox-snapshots/" + snap))
                    .value("status")
                    .toString() == "ready",
            60000);
        const auto asSnapshotHasIt = [&](const QString& path) {
            return m_server.request(
                "GET", base() + "/changes/original?against=" + snap +
                           "&path=" + QString::fromUtf8(QUrl::toPercentEncoding(path, "/")));
        };
        for (const QString& path :
             QStringList{"/root/layer/up" + m_hostSecret, "/root/layer/secret",
                         "/root/layer/etc/shadow", "/root/layer/up/etc/shadow"}) {
            for (const auto& r : {asSnapshotHasIt(path), get("/changes/original", path)}) {
                QVERIFY2(r.status == 400 || r.status == 404, qPrintable(path + describe(r)));
                QVERIFY2(!r.body.contains("host-secret-content") && !r.body.contains("root:"),
                         qPrintable(path));
                verifyNoHostPath(r);
            }
        }
        // The archive holds the links as links, never what they point to on this host.
        const auto tar = m_server.request("GET", base() + "/changes/archive");
        QCOMPARE(tar.status, 200);
        QVERIFY(tar.body.contains("root/layer/secret"));
        QVERIFY(!tar.body.contains("host-secret-content"));
        // Control: a plain file of the snapshot reads.
        QCOMPARE(asSnapshotHasIt("/root/layer/plain").body, QByteArray("plain\n"));
        m_server.request("DELETE", "/api/sandbox-snapshots/" + snap);
    }

    void hostEnvironmentDoesNotLeak()
    {
        const ProbeResult env =
            sh("env; cat /proc/1/environ 2>/dev/null | tr '\\0' '\\n'; echo end");
        QVERIFY2(env.out.contains("end") && env.out.contains("PATH="), qPrintable(env.describe()));
        QVERIFY2(!env.out.contains("host-environment-must-not-leak"), qPrintable(env.describe()));
        const auto viaApi = get("/files", "/proc/1/environ");
        QVERIFY2(!viaApi.body.contains("host-environment-must-not-leak"),
                 qPrintable(describe(viaApi)));
    }
};

QTEST_GUILESS_MAIN(TestSecFiles)
#include "tst_sec_files.moc"
