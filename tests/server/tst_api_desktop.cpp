// Sandbox desktops on a real lizard-local: /api/sandboxes/{id}/desktop (bounds, idempotent
// start, stop and start with the same URLs), the stream behind the port proxy (401 without the
// token; the view-only stream ignores input, the full one obeys it, seen in screenshots), pause
// and resume, a fork's copy, and a base sandbox that has no desktop.
#include "desktop_support.h"

using namespace lizard::test;

class TestApiDesktop : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    QString m_desktop; // a sandbox of the desktop template
    QString m_base;
    QJsonObject m_info; // the desktop's answer once started

    QString path(const QString& id) const { return "/api/sandboxes/" + id + "/desktop"; }

    LocalServer::Response exec(const QString& id, const QString& cmd) const
    {
        return m_server.request("POST", "/api/sandboxes/" + id + "/exec",
                                toJson(QJsonObject{{"cmd", cmd}, {"timeoutMs", 30000}}));
    }
    // stdout of a command that must succeed, or "<...>" saying why not.
    QString run(const QString& id, const QString& cmd) const
    {
        const auto r = exec(id, cmd);
        const QJsonObject o = jsonObject(r);
        if (r.status != 200 || o.value("exitCode").toInt() != 0)
            return "<" + describe(r) + ">";
        return o.value("stdout").toString().trimmed();
    }
    // A digest of the screen, through the in-sandbox command the SDK's screenshot() uses.
    QString screenHash(const QString& id) const
    {
        return run(id, "p=$(lizard-desktop screenshot --path) && sha256sum \"$p\" | cut -c1-64 && "
                       "rm -f \"$p\"");
    }
    QString pointer(const QString& id) const
    {
        return run(id, "xdotool getmouselocation --shell | head -2 | tr '\\n' ' '");
    }
    bool waitScreen(const QString& id, const std::function<bool(const QString&)>& test) const
    {
        return waitUntil([&] { return test(screenHash(id)); }, 15000, 300);
    }

    // A desktop sandbox, or a failure: a host without the desktop's packages fails here.
    QString createDesktop()
    {
        const auto r = m_server.request("POST", "/api/sandboxes", R"({"template":"desktop"})");
        if (r.status == 503) // no sandboxes on this host: a code per cause (runtime/hostprobe.h)
            return {};
        [&] { QVERIFY2(r.status == 200, qPrintable(describe(r))); }();
        return jsonObject(r).value("sandboxId").toString();
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        QString why;
        m_base = createSandbox(m_server, {}, &why);
        LIZ_REQUIRE_SANDBOX(m_base, why);
        m_desktop = createDesktop();
        QVERIFY(!m_desktop.isEmpty());
    }

    void onlyTheDesktopTemplateHasADesktop()
    {
        for (const QByteArray method : {"POST", "GET", "DELETE"}) {
            const auto r = m_server.request(method, path(m_base), method == "POST" ? "{}" : "");
            QVERIFY2(isError(r, 400, "DESKTOP_NOT_SUPPORTED"),
                     qPrintable(method + " " + describe(r)));
        }
        const auto shot = exec(m_base, "lizard-desktop screenshot --path");
        QCOMPARE(jsonObject(shot).value("exitCode").toInt(), 127);
        QCOMPARE(run(m_base, "echo \"[$DISPLAY]\""), QString("[]"));
        QCOMPARE(run(m_desktop, "echo \"[$DISPLAY]\""), QString("[:1]"));
        QVERIFY(isError(m_server.request("GET", path("sb_nosuchsandbox")), 404, "NOT_FOUND"));
    }

    void neverStarted()
    {
        const auto r = m_server.request("GET", path(m_desktop));
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        const QJsonObject o = jsonObject(r);
        QCOMPARE(o.value("running").toBool(true), false);
        QVERIFY(o.value("width").isNull() && o.value("height").isNull());
        QVERIFY(o.value("url").toString().startsWith("http://127."));
        QVERIFY(o.value("viewOnlyUrl").toString().startsWith("http://127."));
    }

    void sizeBounds_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("width alone") << QByteArray(R"({"width":1024})");
        QTest::newRow("height alone") << QByteArray(R"({"height":768})");
        QTest::newRow("too narrow") << QByteArray(R"({"width":639,"height":480})");
        QTest::newRow("too wide") << QByteArray(R"({"width":3841,"height":800})");
        QTest::newRow("too low") << QByteArray(R"({"width":800,"height":479})");
        QTest::newRow("too high") << QByteArray(R"({"width":800,"height":2161})");
        QTest::newRow("not a number") << QByteArray(R"({"width":"800","height":600})");
        QTest::newRow("fraction") << QByteArray(R"({"width":800.5,"height":600})");
    }
    void sizeBounds()
    {
        QFETCH(QByteArray, body);
        const auto r = m_server.request("POST", path(m_desktop), body);
        QVERIFY2(isError(r, 400, "INVALID_ARGUMENT"), qPrintable(describe(r)));
        QCOMPARE(jsonObject(m_server.request("GET", path(m_desktop))).value("running").toBool(true),
                 false);
    }

    void startIsIdempotent()
    {
        QElapsedTimer t;
        t.start();
        const auto first =
            m_server.request("POST", path(m_desktop), R"({"width":800,"height":600})");
        const qint64 startMs = t.elapsed();
        QVERIFY2(first.status == 200, qPrintable(describe(first)));
        m_info = jsonObject(first);
        QCOMPARE(m_info.value("running").toBool(), true);
        QCOMPARE(m_info.value("width").toInt(), 800);
        QCOMPARE(m_info.value("height").toInt(), 600);
        const auto again =
            m_server.request("POST", path(m_desktop), R"({"width":1024,"height":768})");
        QCOMPARE(jsonObject(again), m_info);
        QCOMPARE(jsonObject(m_server.request("GET", path(m_desktop))), m_info);
        QVERIFY2(screenHash(m_desktop).size() == 64, qPrintable(screenHash(m_desktop)));
        // Figures: the start, and the memory of the desktop's processes (PSS: shared pages
        // counted once between them).
        const QString pssKb = run(m_desktop, "for f in /tmp/.lizard-desktop/*.pid; do "
                                             "cat /proc/$(cat $f)/smaps_rollup; done | "
                                             "awk '/^Pss:/ {s+=$2} END {print s}'");
        qInfo().noquote() << "desktop start (800x600):" << startMs
                          << "ms; its processes' PSS:" << pssKb.toLongLong() / 1024 << "MiB";
    }

    void theStreamNeedsItsToken()
    {
        for (const char* which : {"url", "viewOnlyUrl"}) {
            const DesktopUrl u = parseDesktopUrl(m_info.value(which).toString());
            QVERIFY2(!u.token.isEmpty() && u.password.size() == 8, which);
            const RawResponse without =
                proxyRequest(u.hostname, "GET", u.pathAndQueryWithoutToken.toLatin1());
            QCOMPARE(without.status, 401);
            const RawResponse with = proxyRequest(
                u.hostname, "GET", u.pathAndQueryWithoutToken.toLatin1(), {tokenHeader(u.token)});
            QCOMPARE(with.status, 200);
            QVERIFY2(with.body.contains("noVNC"), with.body.left(300).constData());
        }
        const DesktopUrl full = parseDesktopUrl(m_info.value("url").toString());
        const DesktopUrl view = parseDesktopUrl(m_info.value("viewOnlyUrl").toString());
        QVERIFY(full.hostname != view.hostname && full.password != view.password);
        RfbClient wrong;
        QVERIFY(!wrong.open(view, full.password));
        QCOMPARE(wrong.error(), QString("authentication refused"));
        // The holder of the view-only URL has the proxy token (both URLs carry it) but not the
        // full-control password: that comes from a secret of the server's, not from the token.
        RfbClient escalate;
        QVERIFY(!escalate.open(full, view.password));
        QCOMPARE(escalate.error(), QString("authentication refused"));
        QFile secret(m_server.dataDir() + "/desktop-secret");
        QVERIFY(secret.exists());
        QCOMPARE(secret.permissions() & (QFileDevice::ReadGroup | QFileDevice::ReadOther),
                 QFileDevice::Permissions());
    }

    void viewOnlyIgnoresInput()
    {
        const QString idle = screenHash(m_desktop);
        QCOMPARE(idle.size(), 64);
        const QString pointerBefore = pointer(m_desktop);
        const DesktopUrl view = parseDesktopUrl(m_info.value("viewOnlyUrl").toString());
        RfbClient watcher;
        QVERIFY2(watcher.open(view, view.password), qPrintable(watcher.error()));
        QCOMPARE(watcher.width(), 800);
        QCOMPARE(watcher.height(), 600);
        // A right click on the root window opens openbox's menu; a key for good measure.
        watcher.click(123, 111, 3);
        watcher.key('x', true);
        watcher.key('x', false);
        watcher.flush();
        QTest::qWait(1500);
        QCOMPARE(screenHash(m_desktop), idle);
        QCOMPARE(pointer(m_desktop), pointerBefore);

        // The control: the same input through the full-control stream changes the screen.
        const DesktopUrl full = parseDesktopUrl(m_info.value("url").toString());
        RfbClient controller;
        QVERIFY2(controller.open(full, full.password), qPrintable(controller.error()));
        controller.click(123, 111, 3);
        controller.flush();
        QVERIFY2(
            waitScreen(m_desktop, [&](const QString& h) { return h.size() == 64 && h != idle; }),
            "the menu did not open");
        QCOMPARE(pointer(m_desktop), QString("X=123 Y=111"));
        controller.key(0xff1b, true); // Escape closes the menu
        controller.key(0xff1b, false);
        controller.flush();
        QVERIFY2(waitScreen(m_desktop, [&](const QString& h) { return h == idle; }),
                 "the menu stayed");
    }

    void pauseAndResume()
    {
        const QString base = "/api/sandboxes/" + m_desktop;
        QCOMPARE(m_server.request("POST", base + "/pause").status, 204);
        QCOMPARE(m_server.request("GET", path(m_desktop)).status, 409);
        QCOMPARE(m_server.request("POST", base + "/resume").status, 204);
        QCOMPARE(jsonObject(m_server.request("GET", path(m_desktop))), m_info);
        QCOMPARE(screenHash(m_desktop).size(), 64);
        const DesktopUrl full = parseDesktopUrl(m_info.value("url").toString());
        RfbClient again;
        QVERIFY2(again.open(full, full.password), qPrintable(again.error()));
        QCOMPARE(again.width(), 800);
    }

    void aForkStartsWithoutADesktop()
    {
        const auto r = m_server.request("POST", "/api/sandboxes/" + m_desktop + "/fork", "{}");
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        const QString copy = forkedSandbox(r).value("sandboxId").toString();
        QVERIFY2(!copy.isEmpty(), r.body.constData());
        const QJsonObject info = jsonObject(m_server.request("GET", path(copy)));
        QCOMPARE(info.value("running").toBool(true), false);
        QVERIFY(info.value("url").toString() != m_info.value("url").toString());
        const auto started = m_server.request("POST", path(copy));
        QVERIFY2(started.status == 200, qPrintable(describe(started)));
        QCOMPARE(jsonObject(started).value("running").toBool(), true);
        QCOMPARE(screenHash(copy).size(), 64);
        QCOMPARE(m_server.request("DELETE", "/api/sandboxes/" + copy).status, 204);
        // The source's desktop did not notice.
        QCOMPARE(jsonObject(m_server.request("GET", path(m_desktop))), m_info);
    }

    // A restore is a desktop sandbox again (its template's commands, DISPLAY), with the files but
    // not the processes: its desktop is stopped until started.
    void aRestoredSnapshotStartsWithoutADesktop()
    {
        const auto snap =
            m_server.request("POST", "/api/sandboxes/" + m_desktop + "/snapshot", "{}");
        QVERIFY2(snap.status == 200, qPrintable(describe(snap)));
        const QString snapshotId = jsonObject(snap).value("id").toString();
        const auto r =
            m_server.request("POST", "/api/sandboxes", toJson({{"snapshotId", snapshotId}}));
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        const QString copy = jsonObject(r).value("sandboxId").toString();
        QCOMPARE(run(copy, "echo $DISPLAY; command -v lizard-desktop"),
                 QString(":1\n/usr/local/bin/lizard-desktop"));
        const QJsonObject info = jsonObject(m_server.request("GET", path(copy)));
        QCOMPARE(info.value("running").toBool(true), false);
        QCOMPARE(info.value("width").toInt(), 800);
        const auto started = m_server.request("POST", path(copy), R"({"width":640,"height":480})");
        QCOMPARE(jsonObject(started).value("running").toBool(), true);
        QCOMPARE(jsonObject(started).value("width").toInt(), 640);
        QCOMPARE(m_server.request("DELETE", "/api/sandboxes/" + copy).status, 204);
        QCOMPARE(m_server.request("DELETE", "/api/sandbox-snapshots/" + snapshotId).status, 204);
        QCOMPARE(jsonObject(m_server.request("GET", path(m_desktop))), m_info);
    }

    void stopAndStartKeepTheUrls()
    {
        QCOMPARE(m_server.request("DELETE", path(m_desktop)).status, 204);
        const QJsonObject stopped = jsonObject(m_server.request("GET", path(m_desktop)));
        QCOMPARE(stopped.value("running").toBool(true), false);
        QCOMPARE(stopped.value("url"), m_info.value("url"));
        QCOMPARE(stopped.value("viewOnlyUrl"), m_info.value("viewOnlyUrl"));
        QCOMPARE(stopped.value("width").toInt(), 800);
        QVERIFY(screenHash(m_desktop).startsWith("<"));
        const DesktopUrl full = parseDesktopUrl(m_info.value("url").toString());
        QCOMPARE(proxyRequest(full.hostname, "GET", "/vnc.html", {tokenHeader(full.token)}).status,
                 502);
        QCOMPARE(m_server.request("DELETE", path(m_desktop)).status, 204); // stopping twice is fine
        const QJsonObject again = jsonObject(m_server.request("POST", path(m_desktop)));
        QCOMPARE(again.value("running").toBool(), true);
        QCOMPARE(again.value("url"), m_info.value("url"));
        QCOMPARE(again.value("viewOnlyUrl"), m_info.value("viewOnlyUrl"));
        QCOMPARE(again.value("width").toInt(), 1280);
        QCOMPARE(again.value("height").toInt(), 800);
    }

    // Without the desktop's host packages, creating a desktop sandbox says which are missing and
    // leaves no sandbox. A file no host has stands in for a missing package.
    void missingPackagesAreNamed()
    {
        qputenv("LIZARD_TEST_DESKTOP_FILES",
                "lizard-no-such-package=/usr/share/lizard-no-such-file");
        LocalServer server;
        const bool started = server.start();
        qunsetenv("LIZARD_TEST_DESKTOP_FILES");
        QVERIFY2(started, qPrintable(server.errorString()));
        QVERIFY2(server.log().contains("desktop template no (missing: lizard-no-such-package)"),
                 server.log().right(2000).constData());
        const auto r = server.request("POST", "/api/sandboxes", R"({"template":"desktop"})");
        QVERIFY2(isError(r, 503, "TEMPLATE_UNAVAILABLE"), qPrintable(describe(r)));
        QCOMPARE(jsonObject(r).value("message").toString(),
                 QString("the desktop template needs these host packages: lizard-no-such-package"));
        QCOMPARE(jsonArray(server.request("GET", "/api/sandboxes")).size(), 0);
    }

    void cleanupTestCase()
    {
        for (const QString& id : {m_desktop, m_base})
            if (!id.isEmpty())
                m_server.request("DELETE", "/api/sandboxes/" + id);
        const auto list = m_server.request("GET", "/api/sandboxes");
        QVERIFY2(jsonArray(list).isEmpty(), list.body.constData());
    }
};

QTEST_GUILESS_MAIN(TestApiDesktop)
#include "tst_api_desktop.moc"
