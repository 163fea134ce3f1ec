// GET /api/sandboxes/{id}/changes and .../changes/original on a real lizard-local: each kind
// of change a sandbox makes to its template's files (added, modified, deleted, renamed, a
// deleted directory made again, a file become a symbolic link, a new mode, /usr and /usr/local),
// exclusions, a paused sandbox, what an ordinary user hides in a 0700 directory, the template's
// version of a file, the errors, and 100,000 files timed (20,000 as an ordinary user).
#include "lifecycle_support.h"

#include <QElapsedTimer>

using lizard::test::createSandbox;
using lizard::test::describe;
using lizard::test::isError;
using lizard::test::jsonObject;
using lizard::test::LocalServer;
using lizard::test::SandboxApi;

namespace {

// The entries of one listing by path.
QMap<QString, QJsonObject> byPath(const QJsonObject& listing)
{
    QMap<QString, QJsonObject> out;
    for (const QJsonValue& v : listing.value("changes").toArray())
        out.insert(v.toObject().value("path").toString(), v.toObject());
    return out;
}

} // namespace

class TestApiChanges : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    SandboxApi m_api{m_server};
    QString m_id;

    QJsonObject changes(const QString& id, const QString& query = {})
    {
        const auto r = m_server.request("GET", "/api/sandboxes/" + id + "/changes" + query);
        if (r.status != 200)
            qWarning("changes: %s", qPrintable(describe(r)));
        return jsonObject(r);
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        const auto r = m_server.request("POST", "/api/sandboxes", "{}");
        LIZ_REQUIRE_CREATED(r);
        m_id = jsonObject(r).value("sandboxId").toString();
    }

    void cleanupTestCase()
    {
        if (!m_id.isEmpty())
            m_api.kill(m_id);
    }

    void aFreshSandboxChangedNothingOfItsTemplate() // control
    {
        const QString fresh = createSandbox(m_server);
        QVERIFY(!fresh.isEmpty());
        const QJsonObject listing = changes(fresh);
        m_api.kill(fresh);
        QCOMPARE(listing.value("against").toString(), QStringLiteral("template"));
        QCOMPARE(listing.value("truncated").toBool(), false);
        // What the sandbox's start writes itself (its hostname, resolver) is all there is.
        QStringList paths = byPath(listing).keys();
        QVERIFY2(paths.size() <= 5, qPrintable(paths.join(", ")));
        QCOMPARE(listing.value("count").toInt(), paths.size());
    }

    void eachKindOfChangeIsReportedExactly()
    {
        const QString script =
            "set -e\n"
            "echo hello > /root/new.txt\n"                                   // added
            "echo changed >> /etc/debian_version\n"                          // modified
            "rm /etc/issue\n"                                                // deleted
            "mv /etc/shells /root/shells-moved\n"                            // renamed
            "rm -r /etc/skel && mkdir /etc/skel && echo x > /etc/skel/new\n" // opaque
            "rm -r /etc/apt/apt.conf.d\n"                                    // a deleted dir
            "ln -sf /etc/hostname /etc/ld.so.conf\n"                         // a file become a link
            "chmod 600 /etc/host.conf\n"                                     // a new mode
            "echo u > /usr/share/lizard-new\n"                               // /usr's own layer
            "mkdir -p /usr/local/bin && echo t > /usr/local/bin/tool\n";
        QCOMPARE(m_api.run(m_id, "sh -c '" + script + "' && echo done"), QStringLiteral("done\n"));
        const QJsonObject listing = changes(m_id);
        const auto all = byPath(listing);
        const auto expect = [&](const QString& path, const QString& kind, const QString& type) {
            const QJsonObject c = all.value(path);
            QVERIFY2(c.value("kind").toString() == kind && c.value("type").toString() == type,
                     qPrintable(path + ": " + QJsonDocument(c).toJson(QJsonDocument::Compact)));
        };
        expect("/root/new.txt", "added", "file");
        QCOMPARE(all.value("/root/new.txt").value("size").toInt(), 6);
        expect("/etc/debian_version", "modified", "file");
        expect("/etc/issue", "deleted", "file");
        QVERIFY(all.value("/etc/issue").value("size").toInt() > 0); // the template's size
        expect("/etc/shells", "deleted", "file");
        expect("/root/shells-moved", "added", "file");
        expect("/etc/skel", "modified", "dir");
        expect("/etc/skel/.bashrc", "deleted", "file"); // the template's, gone with its dir
        expect("/etc/skel/new", "added", "file");
        expect("/etc/apt/apt.conf.d", "deleted", "dir");
        expect("/etc/ld.so.conf", "modified", "symlink");
        QCOMPARE(all.value("/etc/ld.so.conf").value("was").toString(), QStringLiteral("file"));
        expect("/etc/host.conf", "modified", "file");
        QCOMPARE(all.value("/etc/host.conf").value("mode").toInt(), 0600);
        expect("/usr/share/lizard-new", "added", "file");
        expect("/usr/local/bin/tool", "added", "file");
        // A deleted directory is one entry, not one per file it had.
        for (const QString& path : all.keys())
            QVERIFY2(!path.startsWith("/etc/apt/apt.conf.d/"), qPrintable(path));
        // Directories the overlay copied up only for what changed below them are no change.
        QVERIFY2(!all.contains("/etc") && !all.contains("/root") && !all.contains("/usr/share"),
                 qPrintable(all.keys().join(", ")));
        QVERIFY(listing.value("notCompared").toArray().size() >= 1);
    }

    void theTemplatesVersionOfAFile()
    {
        const auto now = m_api.read(m_id, "/etc/debian_version");
        const auto was = m_server.request("GET", "/api/sandboxes/" + m_id +
                                                     "/changes/original?path=/etc/debian_version");
        QCOMPARE(was.status, 200);
        QVERIFY2(now.body.startsWith(was.body) && now.body.endsWith("changed\n"),
                 qPrintable(describe(was)));
        // A file the sandbox deleted still has its template's version.
        QCOMPARE(
            m_server.request("GET", "/api/sandboxes/" + m_id + "/changes/original?path=/etc/issue")
                .status,
            200);
        QVERIFY(isError(m_server.request("GET", "/api/sandboxes/" + m_id +
                                                    "/changes/original?path=/root/new.txt"),
                        404, "NOT_IN_TEMPLATE"));
        QVERIFY(isError(
            m_server.request("GET", "/api/sandboxes/" + m_id + "/changes/original?path=/etc"), 400,
            "NOT_A_FILE"));
        // Never the host's files: no way up out of the template, no link followed.
        const auto up = m_server.request(
            "GET", "/api/sandboxes/" + m_id + "/changes/original?path=/../../../../etc/shadow");
        QVERIFY2(up.status == 400 || up.status == 404, qPrintable(describe(up)));
        QVERIFY(!up.body.contains("root:"));
        const auto link = m_server.request("GET", "/api/sandboxes/" + m_id +
                                                      "/changes/original?path=/etc/os-release");
        QVERIFY2(isError(link, 400, "NOT_A_FILE"), qPrintable(describe(link)));
    }

    void exclusionsDropWholeSubtrees()
    {
        QCOMPARE(m_api.run(m_id, "mkdir -p /root/app/__pycache__ && echo c > "
                                 "/root/app/__pycache__/m.pyc && echo p > /root/app/m.py && "
                                 "echo ok"),
                 QStringLiteral("ok\n"));
        auto all = byPath(changes(m_id));
        QVERIFY(all.contains("/root/app/__pycache__/m.pyc"));
        all = byPath(changes(m_id, "?exclude=__pycache__,/root/new.*"));
        QVERIFY(!all.contains("/root/app/__pycache__") &&
                !all.contains("/root/app/__pycache__/m.pyc"));
        QVERIFY(!all.contains("/root/new.txt"));
        QVERIFY(all.contains("/root/app/m.py")); // control
    }

    void whatAUserHidesIsListedToo()
    {
        const auto r = m_server.request(
            "POST", "/api/sandboxes/" + m_id + "/exec",
            lizard::test::toJson(QJsonObject{
                {"cmd", "mkdir -m 700 /home/user/private && echo s > /home/user/private/secret"},
                {"user", "user"}}));
        QCOMPARE(jsonObject(r).value("exitCode").toInt(-1), 0);
        const auto all = byPath(changes(m_id));
        QVERIFY2(all.contains("/home/user/private/secret"), qPrintable(all.keys().join(", ")));
    }

    void aPausedSandboxAnswers()
    {
        QCOMPARE(m_api.post(m_id, "pause"), 204);
        const auto all = byPath(changes(m_id));
        QCOMPARE(m_api.post(m_id, "resume"), 204);
        QVERIFY(all.contains("/root/new.txt"));
    }

    // A fork against its source: only what either did after the fork, in the fork's terms
    // (what the source added since is "deleted" here); what both inherited is no difference.
    void aForkComparedWithItsSource()
    {
        QCOMPARE(m_api.run(m_id, "echo both > /root/inherited && echo s > /root/kept && echo ok"),
                 QStringLiteral("ok\n"));
        const auto f =
            m_server.request("POST", "/api/sandboxes/" + m_id + "/fork", "{\"count\":1}");
        QCOMPARE(f.status, 200);
        const QString fork = lizard::test::forkedSandbox(f).value("sandboxId").toString();
        QVERIFY2(!fork.isEmpty(), qPrintable(describe(f)));
        QCOMPARE(m_api.run(fork, "echo mine > /root/fork-only && rm /root/kept && "
                                 "echo changed > /root/inherited && echo ok"),
                 QStringLiteral("ok\n"));
        QCOMPARE(m_api.run(m_id, "echo later > /root/source-only && echo ok"),
                 QStringLiteral("ok\n"));
        const QJsonObject listing = changes(fork, "?against=" + m_id);
        m_api.kill(fork);
        QCOMPARE(listing.value("against").toString(), QStringLiteral("sandbox"));
        QCOMPARE(listing.value("againstId").toString(), m_id);
        const auto all = byPath(listing);
        QCOMPARE(all.value("/root/fork-only").value("kind").toString(), QStringLiteral("added"));
        QCOMPARE(all.value("/root/kept").value("kind").toString(), QStringLiteral("deleted"));
        QCOMPARE(all.value("/root/inherited").value("kind").toString(), QStringLiteral("modified"));
        QCOMPARE(all.value("/root/source-only").value("kind").toString(),
                 QStringLiteral("deleted"));
        // Control: what the fork inherited unchanged (the earlier cases' changes) is no
        // difference.
        QVERIFY2(!all.contains("/root/new.txt") && !all.contains("/etc/debian_version") &&
                     !all.contains("/etc/issue"),
                 qPrintable(all.keys().join(", ")));
        QVERIFY2(all.size() <= 8, qPrintable(all.keys().join(", ")));
    }

    // A sandbox against the snapshot it was taken in: what it did since.
    void aSandboxComparedWithASnapshotOfIt()
    {
        const auto s = m_server.request("POST", "/api/sandboxes/" + m_id + "/snapshot",
                                        "{\"name\":\"compare-base\"}");
        QCOMPARE(s.status, 200);
        const QString snap = jsonObject(s).value("id").toString();
        QVERIFY(!snap.isEmpty());
        QCOMPARE(m_api.run(m_id, "echo after > /root/after-snapshot && rm /root/inherited && "
                                 "echo ok"),
                 QStringLiteral("ok\n"));
        const QJsonObject listing = changes(m_id, "?against=" + snap);
        m_server.request("DELETE", "/api/sandbox-snapshots/" + snap);
        QCOMPARE(listing.value("against").toString(), QStringLiteral("snapshot"));
        const auto all = byPath(listing);
        QCOMPARE(all.value("/root/after-snapshot").value("kind").toString(),
                 QStringLiteral("added"));
        QCOMPARE(all.value("/root/inherited").value("kind").toString(), QStringLiteral("deleted"));
        QVERIFY2(!all.contains("/root/new.txt") && !all.contains("/root/source-only"),
                 qPrintable(all.keys().join(", ")));
        QVERIFY(isError(m_server.request("GET", "/api/sandboxes/" + m_id + "/changes?against=x"),
                        400, "INVALID_ARGUMENT"));
        QVERIFY(
            isError(m_server.request("GET", "/api/sandboxes/" + m_id + "/changes?against=sb_nope"),
                    404, "NOT_FOUND"));
        QVERIFY(
            isError(m_server.request("GET", "/api/sandboxes/" + m_id + "/changes?against=" + snap),
                    404, "NOT_FOUND")); // deleted above
    }

    void errorsAreClear()
    {
        QVERIFY(isError(m_server.request("GET", "/api/sandboxes/" + m_id + "/changes?limit=0"), 400,
                        "INVALID_ARGUMENT"));
        QVERIFY(isError(m_server.request("GET", "/api/sandboxes/sb_nosuchsandbox0/changes"), 404,
                        "NOT_FOUND"));
        QVERIFY(isError(m_server.request("GET", "/api/sandboxes/" + m_id + "/changes/original"),
                        400, "INVALID_ARGUMENT"));
        const QJsonObject one = changes(m_id, "?limit=1");
        QCOMPARE(one.value("count").toInt(), 1);
        QCOMPARE(one.value("truncated").toBool(), true);
    }

    void hundredThousandFiles()
    {
        // An ordinary user's layer is a quota file system (FUSE), where making the files alone
        // takes minutes: that pass lists 20,000.
        const bool image = m_api.info(m_id).value("limits").toObject().value("disk") == "image";
        const int files = image ? 100000 : 20000;
        const auto made = m_server.request(
            "POST", "/api/sandboxes/" + m_id + "/exec",
            lizard::test::toJson(QJsonObject{
                {"cmd", QStringLiteral("mkdir /root/many && cd /root/many && seq %1 | xargs touch "
                                       "&& ls | wc -l")
                            .arg(files)},
                {"timeoutMs", 600000}}));
        QCOMPARE(jsonObject(made).value("stdout").toString(), QString::number(files) + "\n");
        QElapsedTimer clock;
        clock.start();
        const auto r = m_server.request("GET", "/api/sandboxes/" + m_id + "/changes");
        const qint64 ms = clock.elapsed();
        const QJsonObject listing = jsonObject(r);
        qInfo().noquote() << "changes of" << files << "new files:" << ms << "ms to the answer ("
                          << r.body.size() / 1024 << "KiB)," << listing.value("count").toInt()
                          << "entries";
        QVERIFY(listing.value("count").toInt() > files);
        QCOMPARE(listing.value("truncated").toBool(), false);
        QVERIFY(byPath(listing).contains("/root/many/" + QString::number(files)));
    }
};

QTEST_GUILESS_MAIN(TestApiChanges)
#include "tst_api_changes.moc"
