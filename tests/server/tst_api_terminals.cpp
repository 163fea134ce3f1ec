// PTY terminals through the API: a login shell on the sandbox's own terminal, resize and
// Ctrl+C, two clients on one screen, the replay on re-attach, the exit, the limits and the
// refusals (no key, a read-only key typing, no upgrade, bad control, an oversized frame), the
// activity log (who, never what was typed), pause and the sandbox's end.
#include "support_http.h"
#include "terminal_support.h"

#include <QJsonArray>
#include <QThread>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

using lizard::test::describe;
using lizard::test::isError;
using lizard::test::jsonObject;
using lizard::test::LocalServer;
using lizard::test::TerminalSocket;
using lizard::test::toJson;

class TestApiTerminals : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    QString m_id;

    QString base(const QString& id = {}) const
    {
        return "/api/sandboxes/" + (id.isEmpty() ? m_id : id) + "/terminals";
    }

    QJsonObject create(const QJsonObject& body = {}, const QString& id = {})
    {
        const auto r = m_server.request("POST", base(id), toJson(body));
        if (r.status != 201)
            qWarning().noquote() << "create terminal:" << describe(r);
        return r.status == 201 ? jsonObject(r) : QJsonObject();
    }

    bool attach(TerminalSocket& s, const QString& tid, const QString& query = {},
                const QByteArray& key = "<default>", const QString& id = {})
    {
        const std::string k =
            key == "<default>" ? m_server.apiKey().toStdString() : key.toStdString();
        const QString target = base(id) + "/" + tid + "/attach" + query;
        return s.open(m_server.port(), target.toStdString(), k);
    }

    void closeTerminal(const QString& tid, const QString& id = {})
    {
        m_server.request("DELETE", base(id) + "/" + tid);
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        QString why;
        m_id = lizard::test::createSandbox(m_server, {}, &why);
        LIZ_REQUIRE_SANDBOX(m_id, why);
    }

    void loginShellOnTheSandboxTerminal()
    {
        // The harmless control: this host has terminals of its own (one opened here), which the
        // sandbox must not see.
        const int hostPty = ::posix_openpt(O_RDWR | O_NOCTTY);
        QVERIFY(hostPty >= 0);
        const QJsonObject t = create({{"cols", 80}, {"rows", 24}});
        QVERIFY(!t.isEmpty());
        QVERIFY(t.value("terminalId").toString().startsWith("t-"));
        QCOMPARE(t.value("status").toString(), QStringLiteral("running"));
        QCOMPARE(t.value("user").toString(), QStringLiteral("user"));
        QVERIFY(t.value("tty").toString().startsWith("/dev/pts/"));
        QVERIFY(t.value("pid").toInt() > 0);
        QVERIFY(t.value("exitCode").isNull());

        TerminalSocket s;
        QVERIFY2(attach(s, t.value("terminalId").toString()), qPrintable(s.error()));
        const auto hello = s.waitControl("hello");
        QVERIFY(hello);
        QCOMPARE(hello->value("cols").toInt(), 80);
        QCOMPARE(hello->value("status").toString(), QStringLiteral("running"));
        QVERIFY(s.sendBinary("tty; stty size; echo \"T=$TERM U=$(id -un)\"; "
                             "grep Seccomp: /proc/self/status; ls /dev/pts | tr '\\n' ' '; "
                             "echo; echo done-$((40+2))\n"));
        QVERIFY2(s.waitOutput("done-42"), s.output().constData());
        const QByteArray out = s.output();
        QVERIFY2(out.contains("/dev/pts/"), out.constData());
        QVERIFY2(out.contains("24 80"), out.constData());
        QVERIFY2(out.contains("T=xterm-256color U=user"), out.constData());
        // 2: a seccomp filter, the sandbox's.
        QVERIFY2(out.contains("Seccomp:\t2"), out.constData());
        // Only the sandbox's own terminal (and ptmx) in its devpts, not the host's.
        QVERIFY2(out.contains("0 ptmx"), out.constData());
        ::close(hostPty);
        s.close();
        closeTerminal(t.value("terminalId").toString());
    }

    void resizeAndCtrlC()
    {
        const QJsonObject t = create({{"cmd", QJsonArray{"/bin/bash", "--norc", "-i"}}});
        const QString tid = t.value("terminalId").toString();
        QVERIFY(!tid.isEmpty());
        TerminalSocket a, b;
        QVERIFY2(attach(a, tid), qPrintable(a.error()));
        QVERIFY2(attach(b, tid), qPrintable(b.error()));
        QVERIFY(a.waitControl("hello"));
        QVERIFY(b.waitControl("hello"));

        // A resize from one client reaches the program and the other client.
        QVERIFY(a.sendJson({{"type", "resize"}, {"cols", 100}, {"rows", 30}}));
        const auto seen = b.waitControl("resize");
        QVERIFY(seen);
        QCOMPARE(seen->value("cols").toInt(), 100);
        QVERIFY(a.sendBinary("stty size\n"));
        QVERIFY2(a.waitOutput("30 100"), a.output().constData());
        // Both clients see the same output.
        QVERIFY2(b.waitOutput("30 100"), b.output().constData());
        // And through PATCH.
        const auto patched = m_server.request(
            "PATCH", base() + "/" + tid, toJson({{"cols", 120}, {"rows", 40}, {"name", "build"}}));
        QCOMPARE(patched.status, 200);
        QCOMPARE(jsonObject(patched).value("name").toString(), QStringLiteral("build"));
        QVERIFY(a.sendBinary("stty size\n"));
        QVERIFY2(a.waitOutput("40 120"), a.output().constData());

        // Ctrl+C interrupts what runs at the prompt, not the shell.
        // (What is typed is echoed: the markers are computed, so only their output matches.)
        QVERIFY(a.sendBinary("sleep 100; echo not-$((0))-interrupted\n"));
        QThread::msleep(300);
        QVERIFY(a.sendBinary("\x03"));
        QVERIFY(a.sendBinary("echo after-$((6*7))\n"));
        QVERIFY2(a.waitOutput("after-42", 5000), a.output().constData());
        QVERIFY(!a.output().contains("not-0-interrupted"));
        // A signal through the API: to the foreground program too.
        QVERIFY(a.sendBinary("sleep 100\n"));
        QThread::msleep(300);
        QCOMPARE(
            m_server.request("POST", base() + "/" + tid + "/signal", toJson({{"signal", "SIGINT"}}))
                .status,
            204);
        QVERIFY(a.sendBinary("echo back-$((2*3))\n"));
        QVERIFY2(a.waitOutput("back-6", 5000), a.output().constData());
        QVERIFY(isError(m_server.request("POST", base() + "/" + tid + "/signal",
                                         toJson({{"signal", "SIGSEGV"}})),
                        400, "INVALID_ARGUMENT"));
        a.close();
        b.close();
        closeTerminal(tid);
    }

    void reattachReplaysTheRecentOutput()
    {
        const QJsonObject t = create({{"cmd", QJsonArray{"/bin/sh"}}});
        const QString tid = t.value("terminalId").toString();
        {
            TerminalSocket s;
            QVERIFY2(attach(s, tid), qPrintable(s.error()));
            QVERIFY(s.sendBinary("echo before-$((3*3))\n"));
            QVERIFY2(s.waitOutput("before-9"), s.output().constData());
        } // the client goes away without a close: the session stays
        // Output while nobody is attached is kept too.
        QThread::msleep(200);
        const auto listed = m_server.request("GET", base());
        QCOMPARE(listed.status, 200);
        QCOMPARE(jsonObject(listed).value("terminals").toArray().size(), 1);

        TerminalSocket again;
        QVERIFY2(attach(again, tid), qPrintable(again.error()));
        const auto hello = again.waitControl("hello");
        QVERIFY(hello);
        QVERIFY(hello->value("replayBytes").toInt() > 0);
        QVERIFY2(again.waitOutput("before-9"), again.output().constData());
        // Without the replay: live output only.
        TerminalSocket live;
        QVERIFY2(attach(live, tid, "?replay=0"), qPrintable(live.error()));
        QCOMPARE(live.waitControl("hello")->value("replayBytes").toInt(), 0);
        QVERIFY(again.sendBinary("echo later-$((5*5))\n"));
        QVERIFY2(live.waitOutput("later-25"), live.output().constData());
        QVERIFY(!live.output().contains("before-9"));

        // The program's exit ends the session: exit, a normal close, and the record says so.
        QVERIFY(again.sendBinary("exit 3\n"));
        const auto exit = again.waitControl("exit");
        QVERIFY(exit);
        QCOMPARE(exit->value("code").toInt(), 3);
        QCOMPARE(exit->value("reason").toString(), QStringLiteral("exited"));
        QVERIFY(again.waitClosed());
        QCOMPARE(again.closeCode(), 1000);
        const auto ended = jsonObject(m_server.request("GET", base() + "/" + tid));
        QCOMPARE(ended.value("status").toString(), QStringLiteral("exited"));
        QCOMPARE(ended.value("exitCode").toInt(), 3);
        QVERIFY(!ended.value("endedAt").isNull());
        // Attaching to an ended terminal gives its last screen, then the exit.
        TerminalSocket late;
        QVERIFY2(attach(late, tid), qPrintable(late.error()));
        QVERIFY(late.waitOutput("later-25"));
        QVERIFY(late.waitControl("exit"));
        closeTerminal(tid);
        QVERIFY(isError(m_server.request("GET", base() + "/" + tid), 404, "NOT_FOUND"));
    }

    void commandUserAndDirectory()
    {
        const QJsonObject t = create({{"cmd", "pwd; id -un; echo \"$GREETING\"; exit 5"},
                                      {"user", "root"},
                                      {"cwd", "/tmp"},
                                      {"envs", QJsonObject{{"GREETING", "hello-env"}}}});
        const QString tid = t.value("terminalId").toString();
        QVERIFY(!tid.isEmpty());
        TerminalSocket s;
        QVERIFY2(attach(s, tid), qPrintable(s.error()));
        const auto exit = s.waitControl("exit");
        QVERIFY2(exit, s.output().constData());
        QCOMPARE(exit->value("code").toInt(), 5);
        const QByteArray out = s.output();
        QVERIFY2(out.contains("/tmp\r\nroot\r\nhello-env"), out.constData());
        closeTerminal(tid);
    }

    void refusals()
    {
        const QJsonObject t = create({{"cmd", QJsonArray{"/bin/sh"}}});
        const QString tid = t.value("terminalId").toString();
        QVERIFY(!tid.isEmpty());
        // No key: 401 before anything else, also for a terminal that does not exist.
        TerminalSocket keyless;
        QVERIFY(!attach(keyless, tid, {}, ""));
        QCOMPARE(keyless.status(), 401);
        TerminalSocket keylessMissing;
        QVERIFY(!attach(keylessMissing, "t-nosuch", {}, "", "no-such-sandbox"));
        QCOMPARE(keylessMissing.status(), 401);
        // A plain GET on attach: what to do instead.
        QVERIFY(isError(m_server.request("GET", base() + "/" + tid + "/attach"), 426,
                        "UPGRADE_REQUIRED"));
        TerminalSocket unknown;
        QVERIFY(!attach(unknown, "t-nosuch"));
        QCOMPARE(unknown.status(), 404);
        // Bad requests.
        QVERIFY(isError(m_server.request("POST", base(), toJson({{"cols", 0}})), 400,
                        "INVALID_ARGUMENT"));
        QVERIFY(isError(m_server.request("POST", base(), toJson({{"rows", 501}})), 400,
                        "INVALID_ARGUMENT"));
        QVERIFY(isError(m_server.request("POST", base(), toJson({{"cwd", "relative"}})), 400,
                        "INVALID_ARGUMENT"));
        QVERIFY(isError(m_server.request("POST", base(), toJson({{"user", "nobody-here"}})), 400,
                        "UNKNOWN_USER") ||
                m_server.request("POST", base(), toJson({{"user", "nobody-here"}})).status >= 400);
        QVERIFY(isError(m_server.request("POST", "/api/sandboxes/nosuch/terminals", "{}"), 404,
                        "NOT_FOUND"));

        // Bad control messages get an error message; the connection stays.
        TerminalSocket s;
        QVERIFY2(attach(s, tid), qPrintable(s.error()));
        QVERIFY(s.sendText("not json"));
        auto err = s.waitControl("error");
        QVERIFY(err);
        QCOMPARE(err->value("code").toString(), QStringLiteral("INVALID_CONTROL"));
        QVERIFY(s.sendJson({{"type", "resize"}, {"cols", 5000}, {"rows", 10}}));
        QCOMPARE(s.waitControl("error")->value("code").toString(),
                 QStringLiteral("INVALID_CONTROL"));
        QVERIFY(s.sendJson({{"type", "dance"}}));
        QCOMPARE(s.waitControl("error")->value("code").toString(),
                 QStringLiteral("INVALID_CONTROL"));
        QVERIFY(s.sendBinary(QByteArray(70000, 'x')));
        QCOMPARE(s.waitControl("error")->value("code").toString(),
                 QStringLiteral("INPUT_TOO_LARGE"));
        QVERIFY(s.sendBinary("echo still-$((1+1))\n"));
        QVERIFY2(s.waitOutput("still-2"), s.output().constData());
        // A message over 1 MiB closes the connection (1009, too big).
        QVERIFY(s.sendBinary(QByteArray((1 << 20) + 10, 'y')));
        QVERIFY(s.waitClosed());
        QCOMPARE(s.closeCode(), 1009);

        // A read-only key watches; its typing is refused.
        const auto keyAnswer = m_server.request(
            "POST", "/api/account/api-keys",
            toJson({{"name", "viewer"},
                    {"scopes", QJsonArray{QJsonObject{{"type", "access"}, {"id", "read-only"}}}}}));
        QCOMPARE(keyAnswer.status, 200);
        const QByteArray viewerKey = jsonObject(keyAnswer).value("key").toString().toUtf8();
        TerminalSocket viewer, writer;
        QVERIFY2(attach(viewer, tid, {}, viewerKey), qPrintable(viewer.error()));
        QVERIFY2(attach(writer, tid), qPrintable(writer.error()));
        QVERIFY(viewer.sendBinary("echo typed-by-viewer\n"));
        QCOMPARE(viewer.waitControl("error")->value("code").toString(),
                 QStringLiteral("INSUFFICIENT_SCOPE"));
        QVERIFY(writer.sendBinary("echo typed-by-$((7*7))\n"));
        QVERIFY2(viewer.waitOutput("typed-by-49"), viewer.output().constData());
        QVERIFY(!viewer.output().contains("typed-by-viewer")); // not even echoed
        QCOMPARE(m_server.request("POST", base(), "{}", viewerKey).status, 403);
        viewer.close();
        writer.close();
        closeTerminal(tid);
    }

    void limits()
    {
        const QString tid = create({{"cmd", QJsonArray{"/bin/sh"}}}).value("terminalId").toString();
        QVERIFY(!tid.isEmpty());
        // At most 4 clients on one terminal.
        std::vector<std::unique_ptr<TerminalSocket>> clients;
        for (int i = 0; i < 4; ++i) {
            clients.push_back(std::make_unique<TerminalSocket>());
            QVERIFY2(attach(*clients.back(), tid), qPrintable(clients.back()->error()));
            QVERIFY(clients.back()->waitControl("hello"));
        }
        TerminalSocket fifth;
        QVERIFY(!attach(fifth, tid));
        QCOMPARE(fifth.status(), 429);
        QVERIFY(fifth.body().contains("TOO_MANY_CLIENTS"));
        clients.clear();
        // At most 8 running terminals in one sandbox.
        QStringList made{tid};
        for (int i = 1; i < 8; ++i) {
            const QString more =
                create({{"cmd", QJsonArray{"/bin/sh"}}}).value("terminalId").toString();
            QVERIFY(!more.isEmpty());
            made << more;
        }
        QVERIFY(isError(m_server.request("POST", base(), "{}"), 429, "TOO_MANY_TERMINALS"));
        closeTerminal(made.takeFirst());
        const QString again =
            create({{"cmd", QJsonArray{"/bin/sh"}}}).value("terminalId").toString();
        QVERIFY(!again.isEmpty());
        made << again;
        for (const QString& m : made)
            closeTerminal(m);
        QCOMPARE(jsonObject(m_server.request("GET", base())).value("terminals").toArray().size(),
                 0);
    }

    void activityRecordsWhoNeverWhat()
    {
        const QString tid = create({{"cmd", QJsonArray{"/bin/sh"}}}).value("terminalId").toString();
        TerminalSocket s;
        QVERIFY2(attach(s, tid), qPrintable(s.error()));
        QVERIFY(s.sendBinary("echo s3cret-$((8*8))-typed\n"));
        QVERIFY(s.waitOutput("s3cret-64-typed"));
        s.close();
        closeTerminal(tid);
        QThread::msleep(300);
        const auto log = m_server.request("GET", "/api/sandboxes/" + m_id + "/activity?since=0");
        QCOMPARE(log.status, 200);
        QVERIFY2(!log.body.contains("s3cret"), log.body.constData());
        bool opened = false, closed = false;
        const QJsonArray entries = jsonObject(log).value("entries").toArray();
        for (const auto& v : entries) {
            const QJsonObject e = v.toObject();
            if (e.value("kind").toString() != "terminal" || e.value("terminalId").toString() != tid)
                continue;
            if (e.value("event").toString() == "opened")
                opened = !e.value("by").toString().isEmpty();
            if (e.value("event").toString() == "closed")
                closed =
                    e.value("reason").toString() == "closed" && !e.value("by").toString().isEmpty();
        }
        QVERIFY2(opened && closed, log.body.left(4000).constData());
    }

    void pausedSandboxFreezesItsTerminals()
    {
        const QString tid = create({{"cmd", QJsonArray{"/bin/sh"}}}).value("terminalId").toString();
        TerminalSocket s;
        QVERIFY2(attach(s, tid), qPrintable(s.error()));
        QCOMPARE(m_server.request("POST", "/api/sandboxes/" + m_id + "/pause").status, 204);
        QVERIFY(isError(m_server.request("POST", base(), "{}"), 409, "SANDBOX_PAUSED"));
        QVERIFY(s.sendBinary("echo thawed-$((9*9))\n"));
        QVERIFY(!s.waitOutput("thawed-81", 1000)); // frozen: nothing runs
        QCOMPARE(m_server.request("POST", "/api/sandboxes/" + m_id + "/resume").status, 204);
        QVERIFY2(s.waitOutput("thawed-81"), s.output().constData());
        s.close();
        closeTerminal(tid);
    }

    void forkAndSnapshotSayWhatTheyDoNotCopy()
    {
        const QString tid = create({{"cmd", QJsonArray{"/bin/sh"}}}).value("terminalId").toString();
        QVERIFY(!tid.isEmpty());
        const auto forked =
            m_server.request("POST", "/api/sandboxes/" + m_id + "/fork", R"({"count":1})");
        QCOMPARE(forked.status, 200);
        const QJsonObject entry = lizard::test::jsonArray(forked).at(0).toObject();
        QCOMPARE(entry.value("terminalsNotCopied").toInt(), 1);
        const QString copy = entry.value("sandbox").toObject().value("sandboxId").toString();
        QVERIFY(!copy.isEmpty());
        QCOMPARE(
            jsonObject(m_server.request("GET", base(copy))).value("terminals").toArray().size(), 0);
        m_server.request("DELETE", "/api/sandboxes/" + copy);
        const auto snap = m_server.request("POST", "/api/sandboxes/" + m_id + "/snapshot", "{}");
        QCOMPARE(snap.status, 200);
        QCOMPARE(jsonObject(snap).value("terminalsNotCopied").toInt(), 1);
        m_server.request("DELETE",
                         "/api/sandbox-snapshots/" + jsonObject(snap).value("id").toString());
        // The source's terminal goes on.
        TerminalSocket s;
        QVERIFY2(attach(s, tid), qPrintable(s.error()));
        QVERIFY(s.sendBinary("echo source-$((4*4))\n"));
        QVERIFY2(s.waitOutput("source-16"), s.output().constData());
        s.close();
        closeTerminal(tid);
    }

    void sessionsEndWithTheirSandbox()
    {
        QString why;
        const QString other = lizard::test::createSandbox(m_server, {}, &why);
        QVERIFY2(!other.isEmpty(), qPrintable(why));
        const QString tid = create({}, other).value("terminalId").toString();
        QVERIFY(!tid.isEmpty());
        TerminalSocket s;
        QVERIFY2(attach(s, tid, {}, "<default>", other), qPrintable(s.error()));
        QVERIFY(s.waitControl("hello"));
        QCOMPARE(m_server.request("DELETE", "/api/sandboxes/" + other).status, 204);
        const auto exit = s.waitControl("exit");
        QVERIFY(exit);
        QCOMPARE(exit->value("reason").toString(), QStringLiteral("sandbox ended"));
        QVERIFY(isError(m_server.request("GET", base(other)), 404, "NOT_FOUND"));
    }

    // Each case starts with no terminal in the shared sandbox (a failed one may leave some).
    void cleanup()
    {
        const auto r = m_server.request("GET", base());
        for (const auto& v : jsonObject(r).value("terminals").toArray())
            closeTerminal(v.toObject().value("terminalId").toString());
    }

    void cleanupTestCase()
    {
        if (!m_id.isEmpty())
            m_server.request("DELETE", "/api/sandboxes/" + m_id);
    }
};

QTEST_GUILESS_MAIN(TestApiTerminals)
#include "tst_api_terminals.moc"
