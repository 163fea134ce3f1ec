// fs.watch through the API: what a recursive watch reports (a new subdirectory included),
// the overflow marker, a drain right after a burst, a non-recursive watch, the watcher cap, the
// errors, and the watcher's end (DELETE, pause and fork, the sandbox killed).
#include "support_http.h"

#include <QUrl>

using lizard::test::describe;
using lizard::test::isError;
using lizard::test::jsonArray;
using lizard::test::jsonObject;
using lizard::test::LocalServer;
using lizard::test::toJson;

namespace {

struct Event
{
    QString type, name, path;
    bool operator==(const Event& o) const
    {
        return type == o.type && name == o.name && path == o.path;
    }
};

QString show(const QList<Event>& events)
{
    QStringList out;
    for (const Event& e : events)
        out << e.type + " " + e.path;
    return out.join(", ");
}

} // namespace

class TestApiWatch : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    QString m_id;

    QString base(const QString& id = {}) const
    {
        return "/api/sandboxes/" + (id.isEmpty() ? m_id : id);
    }

    LocalServer::Response watch(const QString& path, bool recursive, const QString& id = {})
    {
        return m_server.request("POST", base(id) + "/files/watch",
                                toJson({{"path", path}, {"recursive", recursive}}));
    }

    QString watchOk(const QString& path, bool recursive)
    {
        const auto r = watch(path, recursive);
        if (r.status != 200)
            qWarning("watch %s: %s", qPrintable(path), qPrintable(describe(r)));
        return jsonObject(r).value("watcherId").toString();
    }

    LocalServer::Response events(const QString& watcher, const QString& id = {})
    {
        return m_server.request("GET", base(id) + "/files/watch/events?watcherId=" + watcher);
    }

    LocalServer::Response close(const QString& watcher, const QString& id = {})
    {
        return m_server.request("DELETE", base(id) + "/files/watch?watcherId=" + watcher);
    }

    QList<Event> drain(const QString& watcher)
    {
        QList<Event> out;
        const auto r = events(watcher);
        if (r.status != 200)
            qWarning("events: %s", qPrintable(describe(r)));
        for (const auto& v : jsonArray(r)) {
            const QJsonObject o = v.toObject();
            out.push_back({o.value("type").toString(), o.value("name").toString(),
                           o.value("path").toString()});
        }
        return out;
    }

    // Drains until `want` appears in order within what was drained (at most 5 s).
    bool collectUntil(const QString& watcher, const QList<Event>& want, QList<Event>& seen)
    {
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 5000) {
            seen += drain(watcher);
            qsizetype next = 0;
            for (const Event& e : seen)
                if (next < want.size() && e == want[next])
                    ++next;
            if (next == want.size())
                return true;
            QTest::qWait(50);
        }
        return false;
    }

    void exec(const QString& cmd)
    {
        const auto r = m_server.request("POST", base() + "/exec", toJson({{"cmd", cmd}}));
        QVERIFY2(r.status == 200 && jsonObject(r).value("exitCode").toInt() == 0,
                 qPrintable(describe(r)));
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        QString why;
        m_id = lizard::test::createSandbox(m_server, {}, &why);
        LIZ_REQUIRE_SANDBOX(m_id, why);
    }

    void recursiveReportsEveryKindInANewSubdirectory()
    {
        exec("mkdir -p /w1");
        const QString w = watchOk("/w1", true);
        QVERIFY(w.startsWith("w-"));
        QCOMPARE(drain(w), QList<Event>{}); // a quiet interval is an empty array

        exec("mkdir /w1/sub");
        QList<Event> seen;
        QVERIFY2(collectUntil(w, {{"create", "sub", "/w1/sub"}}, seen), qPrintable(show(seen)));

        // Inside the directory that appeared after the watch began.
        exec("echo a > /w1/sub/f.txt && echo b >> /w1/sub/f.txt && chmod 600 /w1/sub/f.txt && "
             "mv /w1/sub/f.txt /w1/sub/g.txt && rm /w1/sub/g.txt");
        seen.clear();
        const QList<Event> want{
            {"create", "f.txt", "/w1/sub/f.txt"}, {"write", "f.txt", "/w1/sub/f.txt"},
            {"chmod", "f.txt", "/w1/sub/f.txt"},  {"rename", "f.txt", "/w1/sub/f.txt"},
            {"create", "g.txt", "/w1/sub/g.txt"}, {"remove", "g.txt", "/w1/sub/g.txt"}};
        QVERIFY2(collectUntil(w, want, seen), qPrintable(show(seen)));

        // A file written through the files API shows under its final name.
        QCOMPARE(m_server
                     .request("POST", base() + "/files",
                              toJson({{"path", "/w1/sub/api.txt"}, {"content", "x"}}))
                     .status,
                 204);
        seen.clear();
        QVERIFY2(collectUntil(w, {{"create", "api.txt", "/w1/sub/api.txt"}}, seen),
                 qPrintable(show(seen)));

        // A directory moved out is forgotten; the one moved in is watched.
        exec("mkdir -p /w1/sub/deep && mv /w1/sub /w1/moved");
        seen.clear();
        QVERIFY2(
            collectUntil(w, {{"rename", "sub", "/w1/sub"}, {"create", "moved", "/w1/moved"}}, seen),
            qPrintable(show(seen)));
        exec("touch /w1/moved/deep/late.txt");
        seen.clear();
        QVERIFY2(collectUntil(w, {{"create", "late.txt", "/w1/moved/deep/late.txt"}}, seen),
                 qPrintable(show(seen)));
        for (const Event& e : seen)
            QVERIFY2(!e.path.startsWith("/w1/sub/"), qPrintable(show(seen)));
        QCOMPARE(close(w).status, 204);
    }

    void nonRecursiveIgnoresSubdirectories()
    {
        exec("mkdir -p /w2/sub");
        const QString w = watchOk("/w2", false);
        exec("touch /w2/sub/inner.txt && touch /w2/top.txt && mkdir /w2/newdir && "
             "touch /w2/newdir/x");
        QList<Event> seen;
        QVERIFY2(collectUntil(
                     w, {{"create", "top.txt", "/w2/top.txt"}, {"create", "newdir", "/w2/newdir"}},
                     seen),
                 qPrintable(show(seen)));
        QTest::qWait(200);
        seen += drain(w);
        for (const Event& e : seen) {
            QVERIFY2(!e.path.startsWith("/w2/sub/"), qPrintable(show(seen)));
            QVERIFY2(!e.path.startsWith("/w2/newdir/"), qPrintable(show(seen)));
        }
        QCOMPARE(close(w).status, 204);
    }

    void overflowEndsWithAMarker()
    {
        exec("mkdir -p /w3");
        const QString w = watchOk("/w3", false);
        exec("for i in $(seq 1 10500); do : > /w3/f$i; done");
        const auto r = events(w);
        QCOMPARE(r.status, 200);
        const QJsonArray all = jsonArray(r);
        QCOMPARE(all.size(), 10001); // the queue holds 10,000; the marker comes last
        QCOMPARE(all.first().toObject().value("path").toString(), QStringLiteral("/w3/f1"));
        const QJsonObject marker = all.last().toObject();
        QCOMPARE(marker.value("type").toString(), QStringLiteral("overflow"));
        QCOMPARE(marker.value("path").toString(), QStringLiteral("/w3"));
        QVERIFY2(marker.value("dropped").toInt() >= 500, qPrintable(describe(r)));
        // The next interval is an ordinary one again.
        exec("touch /w3/after");
        QList<Event> seen;
        QVERIFY2(collectUntil(w, {{"create", "after", "/w3/after"}}, seen), qPrintable(show(seen)));
        for (const Event& e : seen)
            QVERIFY(e.type != "overflow");
        QCOMPARE(close(w).status, 204);
    }

    // The agent's reader lets events gather before it reads them (watchhub.cpp): a burst of
    // creates still arrives whole, the last one included, none lost on the way. (That a drain
    // reads the kernel's queue first, overflowEndsWithAMarker needs: its count is exact.)
    void aDrainRightAfterABurstHoldsAllOfIt()
    {
        exec("mkdir -p /w6");
        const QString w = watchOk("/w6", false);
        exec("for i in $(seq 1 3000); do : > /w6/f$i; done");
        const auto r = events(w);
        QCOMPARE(r.status, 200);
        QSet<QString> created;
        for (const auto& v : jsonArray(r)) {
            const QJsonObject o = v.toObject();
            QVERIFY2(o.value("type").toString() != QLatin1String("overflow"),
                     qPrintable(describe(r)));
            if (o.value("type").toString() == QLatin1String("create"))
                created.insert(o.value("path").toString());
        }
        QCOMPARE(created.size(), 3000);
        QVERIFY(created.contains(QStringLiteral("/w6/f3000")));
        QCOMPARE(close(w).status, 204);
    }

    void badInput_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("code");
        QTest::newRow("missing path") << QByteArray("{}") << 400 << "INVALID_ARGUMENT";
        QTest::newRow("relative path")
            << QByteArray(R"({"path":"tmp"})") << 400 << "INVALID_ARGUMENT";
        QTest::newRow("path not a string")
            << QByteArray(R"({"path":7})") << 400 << "INVALID_ARGUMENT";
        QTest::newRow("recursive not a boolean")
            << QByteArray(R"({"path":"/tmp","recursive":"yes"})") << 400 << "INVALID_ARGUMENT";
        QTest::newRow("not json") << QByteArray("{nope") << 400 << "INVALID_JSON";
        QTest::newRow("missing directory")
            << QByteArray(R"({"path":"/no/such/dir"})") << 404 << "NOT_FOUND";
        QTest::newRow("a file") << QByteArray(R"({"path":"/etc/passwd"})") << 400
                                << "NOT_A_DIRECTORY";
        QTest::newRow("through a magic link")
            << QByteArray(R"({"path":"/proc/self/root/tmp"})") << 400 << "PERMISSION_DENIED";
    }

    void badInput()
    {
        QFETCH(QByteArray, body);
        QFETCH(int, status);
        QFETCH(QString, code);
        const auto r = m_server.request("POST", base() + "/files/watch", body);
        QVERIFY2(isError(r, status, code), qPrintable(describe(r)));
    }

    void unknownWatcher()
    {
        QVERIFY2(isError(events("w-0000000000000000"), 404, "NOT_FOUND"),
                 qPrintable(describe(events("w-0000000000000000"))));
        QVERIFY(isError(close("w-0000000000000000"), 404, "NOT_FOUND"));
        const auto missing = m_server.request("GET", base() + "/files/watch/events");
        QVERIFY2(isError(missing, 400, "INVALID_ARGUMENT"), qPrintable(describe(missing)));
        QVERIFY(
            isError(m_server.request("DELETE", base() + "/files/watch"), 400, "INVALID_ARGUMENT"));
        QVERIFY(isError(events("w-1", "sb_nope"), 404, "NOT_FOUND"));
    }

    void goneAfterDelete()
    {
        const QString w = watchOk("/tmp", false);
        QCOMPARE(close(w).status, 204);
        QVERIFY(isError(events(w), 404, "NOT_FOUND"));
        QVERIFY(isError(close(w), 404, "NOT_FOUND"));
    }

    void capPerSandbox()
    {
        QStringList open;
        for (int i = 0; i < 64; ++i) {
            const QString w = watchOk("/tmp", false);
            QVERIFY2(!w.isEmpty(), qPrintable(QString::number(i)));
            open << w;
        }
        const auto over = watch("/tmp", false);
        QVERIFY2(isError(over, 429, "TOO_MANY_WATCHERS"), qPrintable(describe(over)));
        QCOMPARE(close(open.takeFirst()).status, 204);
        open << watchOk("/tmp", false); // room again after a close
        QVERIFY(!open.last().isEmpty());
        for (const QString& w : open)
            QCOMPARE(close(w).status, 204);
    }

    void survivesPauseNotFork()
    {
        exec("mkdir -p /w4");
        const QString w = watchOk("/w4", false);
        QCOMPARE(m_server.request("POST", base() + "/pause").status, 204);
        QVERIFY(isError(events(w), 409, "SANDBOX_PAUSED"));
        QCOMPARE(m_server.request("POST", base() + "/resume").status, 204);
        exec("touch /w4/after-resume");
        QList<Event> seen;
        QVERIFY2(collectUntil(w, {{"create", "after-resume", "/w4/after-resume"}}, seen),
                 qPrintable(show(seen)));

        const auto f = m_server.request("POST", base() + "/fork", "{}");
        QVERIFY2(f.status == 200, qPrintable(describe(f)));
        const QString copy = forkedSandbox(f).value("sandboxId").toString();
        QVERIFY(!copy.isEmpty());
        QVERIFY2(isError(events(w, copy), 404, "NOT_FOUND"), qPrintable(describe(events(w, copy))));
        m_server.request("DELETE", base(copy));
        QCOMPARE(close(w).status, 204);
    }

    // Watchers live in the sandbox's agent, not in lizard-local: a restart (even a kill) of
    // the server keeps them and the events that came meanwhile.
    void survivesServerRestart()
    {
        exec("mkdir -p /w5");
        const QString w = watchOk("/w5", false);
        exec("touch /w5/before");
        QVERIFY(m_server.crash());
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        exec("touch /w5/after");
        QList<Event> seen;
        QVERIFY2(
            collectUntil(w, {{"create", "before", "/w5/before"}, {"create", "after", "/w5/after"}},
                         seen),
            qPrintable(show(seen)));
        QCOMPARE(close(w).status, 204);
    }

    void goneWithTheSandbox()
    {
        QString why;
        const QString other = lizard::test::createSandbox(m_server, {}, &why);
        LIZ_REQUIRE_SANDBOX(other, why);
        const auto r = watch("/tmp", true, other);
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        const QString w = jsonObject(r).value("watcherId").toString();
        QCOMPARE(events(w, other).status, 200);
        QCOMPARE(m_server.request("DELETE", base(other)).status, 204);
        QVERIFY(isError(events(w, other), 404, "NOT_FOUND"));
        QVERIFY(isError(close(w, other), 404, "NOT_FOUND"));
    }

    void cleanupTestCase()
    {
        if (!m_id.isEmpty())
            m_server.request("DELETE", base());
    }
};

QTEST_GUILESS_MAIN(TestApiWatch)
#include "tst_api_watch.moc"
