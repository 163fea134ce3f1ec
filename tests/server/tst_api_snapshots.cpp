// Snapshots through the API: the object's shape, the whole writable file system captured
// (files, binary data, owners and modes, symlinks, deleted and replaced template files), a
// paused source stays paused, restore into the same project only, PATCH, delete, the
// pre-snapshot hook, and snapshots surviving a restart.
#include "lifecycle_support.h"

#include <QDateTime>
#include <QFileInfo>

using lizard::test::describe;
using lizard::test::isError;
using lizard::test::jsonArray;
using lizard::test::jsonObject;
using lizard::test::LocalServer;
using lizard::test::SandboxApi;
using lizard::test::toJson;

class TestApiSnapshots : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    SandboxApi m_api{m_server};
    QString m_project;
    QString m_source;
    QString m_snapshot;
    QStringList m_created;

    QString create(const QJsonObject& body = {})
    {
        QString why;
        const QString id = lizard::test::createSandbox(m_server, body, &why);
        if (id.isEmpty())
            qWarning() << why;
        else
            m_created << id;
        return id;
    }

    LocalServer::Response snapshot(const QString& id, const QJsonObject& body = {})
    {
        return m_server.request("POST", "/api/sandboxes/" + id + "/snapshot", toJson(body));
    }

    bool listed(const QString& path, const QString& snapshotId)
    {
        for (const auto& v : jsonArray(m_server.request("GET", path))) {
            if (v.toObject().value("id").toString() == snapshotId)
                return true;
        }
        return false;
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        m_project = jsonObject(m_server.request("POST", "/api/projects", R"({"name":"snaps"})"))
                        .value("id")
                        .toString();
        const auto probe =
            m_server.request("POST", "/api/sandboxes",
                             toJson({{"projectId", m_project},
                                     {"size", "small"},
                                     {"envs", QJsonObject{{"FROM_CREATE", "yes"}}}}));
        LIZ_REQUIRE_CREATED(probe);
        m_source = jsonObject(probe).value("sandboxId").toString();
        m_created << m_source;
        // Everything an upper layer holds: new files, binary data, an owner and a mode, a
        // symlink, a hard link, a deleted template file (whiteout), a replaced template
        // directory (opaque), a file in the separate /usr/local layer.
        QCOMPARE(m_api.write(m_source, "/home/user/notes.txt", "hello snapshot"), 204);
        QCOMPARE(
            m_api.run(m_source,
                      "set -e; head -c 300000 /dev/urandom > /root/blob; sha256sum /root/blob > "
                      "/root/blob.sum;"
                      "install -o user -g user -m 640 /dev/null /home/user/private;"
                      "ln -s /home/user/notes.txt /root/link; ln /root/blob /root/blob.hard;"
                      "rm /etc/hostname; rm -rf /etc/skel; mkdir /etc/skel; touch /etc/skel/only;"
                      "echo local > /usr/local/bin/mine; echo done"),
            QStringLiteral("done\n"));
    }

    void cleanupTestCase()
    {
        for (const QString& id : m_created)
            m_api.kill(id);
    }

    void takeSnapshot()
    {
        const auto r = snapshot(m_source, {{"name", "first"}, {"poolSize", 5}});
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        QJsonObject s = jsonObject(r);
        m_snapshot = s.value("id").toString();
        QVERIFY(m_snapshot.startsWith("snap_"));
        QCOMPARE(s.value("name").toString(), QStringLiteral("first"));
        QCOMPARE(s.value("projectId").toString(), m_project);
        QCOMPARE(s.value("workspaceId").toString(), QStringLiteral("ws_local"));
        QCOMPARE(s.value("region").toString(), QStringLiteral("local"));
        QCOMPARE(s.value("sourceSandboxId").toString(), m_source);
        QCOMPARE(s.value("status").toString(), QStringLiteral("ready"));
        QVERIFY(s.value("error").isNull());
        QCOMPARE(s.value("readyCount").toInt(), 1);
        QVERIFY(s.value("poolSize").isDouble());
        QCOMPARE(s.value("scope").toString(), QStringLiteral("project"));
        QVERIFY(s.value("createdAt").isDouble());
        QVERIFY(qAbs(qint64(s.value("createdAt").toDouble()) -
                     QDateTime::currentMSecsSinceEpoch()) < 60000);
        QVERIFY(s.contains("cpus") && s.contains("memoryMb") && s.contains("sourceVolume") &&
                s.contains("createdBy"));
        QVERIFY(s.value("sizeBytes").toDouble() >= 300000);
        // the source keeps running
        QCOMPARE(m_api.status(m_source), QStringLiteral("running"));
        QCOMPARE(m_api.run(m_source, "echo alive"), QStringLiteral("alive\n"));
        // get and both lists
        // The answer to the POST also says how many terminals the snapshot left out (none
        // here); the snapshot itself does not keep that.
        QCOMPARE(s.value("terminalsNotCopied").toInt(-1), 0);
        s.remove("terminalsNotCopied");
        QCOMPARE(jsonObject(m_server.request("GET", "/api/sandbox-snapshots/" + m_snapshot)), s);
        QVERIFY(listed("/api/projects/" + m_project + "/snapshots", m_snapshot));
        QVERIFY(listed("/api/sandbox-snapshots", m_snapshot));
        QVERIFY(!listed("/api/projects/default/snapshots", m_snapshot));
    }

    void restoreHasTheFiles()
    {
        QVERIFY(!m_snapshot.isEmpty());
        const auto r = m_server.request("POST", "/api/sandboxes",
                                        toJson({{"snapshotId", m_snapshot},
                                                {"projectId", m_project},
                                                {"size", "large"},
                                                {"region", "local"}}));
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        const QJsonObject info = jsonObject(r);
        const QString copy = info.value("sandboxId").toString();
        m_created << copy;
        QCOMPARE(info.value("projectId").toString(), m_project);
        QCOMPARE(info.value("size").toString(), QStringLiteral("small")); // the source's
        QCOMPARE(m_api.read(copy, "/home/user/notes.txt").body, QByteArray("hello snapshot"));
        QCOMPARE(m_api.run(copy, "sha256sum -c /root/blob.sum >/dev/null && echo same"),
                 QStringLiteral("same\n"));
        QCOMPARE(m_api.run(copy, "stat -c '%U %G %a' /home/user/private"),
                 QStringLiteral("user user 640\n"));
        QCOMPARE(m_api.run(copy, "readlink /root/link"), QStringLiteral("/home/user/notes.txt\n"));
        QCOMPARE(m_api.run(copy, "stat -c %h /root/blob"), QStringLiteral("2\n"));
        QCOMPARE(m_api.run(copy, "test -e /etc/hostname && echo there || echo gone"),
                 QStringLiteral("gone\n"));
        QCOMPARE(m_api.run(copy, "ls -A /etc/skel"), QStringLiteral("only\n"));
        QCOMPARE(m_api.run(copy, "cat /usr/local/bin/mine"), QStringLiteral("local\n"));
        QCOMPARE(m_api.run(copy, "echo $FROM_CREATE"),
                 QStringLiteral("yes\n")); // the source's envs
        // the copy is its own: a change there is not in the source
        QCOMPARE(m_api.write(copy, "/home/user/notes.txt", "changed"), 204);
        QCOMPARE(m_api.read(m_source, "/home/user/notes.txt").body, QByteArray("hello snapshot"));
    }

    void restoreWithoutProjectUsesTheSnapshots()
    {
        const auto r =
            m_server.request("POST", "/api/sandboxes", toJson({{"snapshotId", m_snapshot}}));
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        m_created << jsonObject(r).value("sandboxId").toString();
        QCOMPARE(jsonObject(r).value("projectId").toString(), m_project);
    }

    void restoreErrors_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("code");
        QTest::newRow("other project") << QByteArray(R"({"projectId":"default","snapshotId":"%S"})")
                                       << 403 << "SNAPSHOT_SCOPE";
        QTest::newRow("unknown snapshot")
            << QByteArray(R"({"snapshotId":"snap_nosuchthing0000"})") << 404 << "NOT_FOUND";
        QTest::newRow("not a string")
            << QByteArray(R"({"snapshotId":7})") << 400 << "INVALID_ARGUMENT";
    }

    void restoreErrors()
    {
        QFETCH(QByteArray, body);
        QFETCH(int, status);
        QFETCH(QString, code);
        body.replace("%S", m_snapshot.toUtf8());
        const auto r = m_server.request("POST", "/api/sandboxes", body);
        QVERIFY2(isError(r, status, code), qPrintable(describe(r)));
    }

    void snapshotOfPausedStaysPaused()
    {
        QCOMPARE(m_api.post(m_source, "pause"), 204);
        const auto r = snapshot(m_source, {{"name", "while paused"}});
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        QCOMPARE(jsonObject(r).value("status").toString(), QStringLiteral("ready"));
        QCOMPARE(m_api.status(m_source), QStringLiteral("paused"));
        QCOMPARE(m_api.post(m_source, "resume"), 204);
        m_server.request("DELETE",
                         "/api/sandbox-snapshots/" + jsonObject(r).value("id").toString());
    }

    void preSnapshotHookRuns()
    {
        const QString id = create({{"projectId", m_project}});
        QVERIFY(!id.isEmpty());
        // installed by the sandbox user, so it runs as that user; writes where a restore sees it
        QCOMPARE(m_api.run(id, "mkdir -p /tmp/.lizard-code/.hooks && chmod 777 /tmp/.lizard-code &&"
                               "printf '#!/bin/sh\\nid -un > /tmp/.lizard-code/saved; pwd >> "
                               "/tmp/.lizard-code/saved\\n'"
                               " > /tmp/.lizard-code/.hooks/pre-snapshot && chmod 755 "
                               "/tmp/.lizard-code/.hooks/pre-snapshot &&"
                               "chown -R user:user /tmp/.lizard-code/.hooks && echo ok"),
                 QStringLiteral("ok\n"));
        const auto r = snapshot(id);
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        const QString snap = jsonObject(r).value("id").toString();
        QCOMPARE(jsonObject(r).value("name").toString(), "Snapshot " + id); // the default name
        const auto restored =
            m_server.request("POST", "/api/sandboxes", toJson({{"snapshotId", snap}}));
        QVERIFY2(restored.status == 200, qPrintable(describe(restored)));
        const QString copy = jsonObject(restored).value("sandboxId").toString();
        m_created << copy;
        QCOMPARE(m_api.read(copy, "/tmp/.lizard-code/saved").body, QByteArray("user\n/\n"));
        // a failing hook is logged, never fatal
        QCOMPARE(m_api.run(id, "printf '#!/bin/sh\\nexit 3\\n' > "
                               "/tmp/.lizard-code/.hooks/pre-snapshot && echo ok"),
                 QStringLiteral("ok\n"));
        const auto again = snapshot(id);
        QVERIFY2(again.status == 200, qPrintable(describe(again)));
        QCOMPARE(jsonObject(again).value("status").toString(), QStringLiteral("ready"));
    }

    void patchSnapshot()
    {
        auto r = m_server.request("PATCH", "/api/sandbox-snapshots/" + m_snapshot,
                                  R"({"name":"renamed"})");
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        QCOMPARE(jsonObject(r).value("name").toString(), QStringLiteral("renamed"));
        r = m_server.request("PATCH", "/api/sandbox-snapshots/" + m_snapshot,
                             R"({"scope":"workspace","poolSize":2})");
        QCOMPARE(r.status, 200);
        QCOMPARE(jsonObject(r).value("scope").toString(), QStringLiteral("project")); // always
        QVERIFY(isError(
            m_server.request("PATCH", "/api/sandbox-snapshots/" + m_snapshot, R"({"name":""})"),
            400, "INVALID_ARGUMENT"));
        QVERIFY(isError(m_server.request("PATCH", "/api/sandbox-snapshots/" + m_snapshot,
                                         R"({"poolSize":"x"})"),
                        400, "INVALID_ARGUMENT"));
        QVERIFY(isError(m_server.request("PATCH", "/api/sandbox-snapshots/snap_nope", "{}"), 404,
                        "NOT_FOUND"));
    }

    void snapshotErrors()
    {
        QVERIFY(isError(snapshot("sb_nosuchsandbox00"), 404, "NOT_FOUND"));
        QVERIFY(isError(
            m_server.request("POST", "/api/sandboxes/" + m_source + "/snapshot", R"({"name":5})"),
            400, "INVALID_ARGUMENT"));
        QVERIFY(isError(m_server.request("GET", "/api/projects/nosuchproject/snapshots"), 404,
                        "NOT_FOUND"));
        QVERIFY(
            isError(m_server.request("GET", "/api/sandbox-snapshots/snap_nope"), 404, "NOT_FOUND"));
    }

    void projectWithSnapshotsIsKept()
    {
        const QString project =
            jsonObject(m_server.request("POST", "/api/projects", R"({"name":"snaps-keep"})"))
                .value("id")
                .toString();
        QString why;
        const QString id = lizard::test::createSandbox(m_server, {{"projectId", project}}, &why);
        QVERIFY2(!id.isEmpty(), qPrintable(why));
        const auto r = snapshot(id);
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        m_api.kill(id);
        // its snapshots restore only there: deleting the project would strand them
        const auto refused = m_server.request("DELETE", "/api/projects/" + project);
        QVERIFY2(isError(refused, 409, "CONFLICT"), qPrintable(describe(refused)));
        QVERIFY(jsonObject(refused).value("message").toString().contains("snapshot"));
        QCOMPARE(
            m_server
                .request("DELETE", "/api/sandbox-snapshots/" + jsonObject(r).value("id").toString())
                .status,
            204);
        QCOMPARE(m_server.request("DELETE", "/api/projects/" + project).status, 204);
    }

    void snapshotsSurviveRestart()
    {
        QVERIFY2(m_server.restart(), qPrintable(m_server.errorString()));
        const auto r = m_server.request("GET", "/api/sandbox-snapshots/" + m_snapshot);
        QCOMPARE(r.status, 200);
        QCOMPARE(jsonObject(r).value("status").toString(), QStringLiteral("ready"));
        QCOMPARE(jsonObject(r).value("name").toString(), QStringLiteral("renamed"));
        const auto restored =
            m_server.request("POST", "/api/sandboxes", toJson({{"snapshotId", m_snapshot}}));
        QVERIFY2(restored.status == 200, qPrintable(describe(restored)));
        const QString copy = jsonObject(restored).value("sandboxId").toString();
        m_created << copy;
        QCOMPARE(m_api.read(copy, "/home/user/notes.txt").body, QByteArray("hello snapshot"));
    }

    void deleteSnapshot()
    {
        QCOMPARE(m_server.request("DELETE", "/api/sandbox-snapshots/" + m_snapshot).status, 204);
        QVERIFY(isError(m_server.request("GET", "/api/sandbox-snapshots/" + m_snapshot), 404,
                        "NOT_FOUND"));
        QVERIFY(isError(m_server.request("DELETE", "/api/sandbox-snapshots/" + m_snapshot), 404,
                        "NOT_FOUND"));
        QVERIFY(!listed("/api/sandbox-snapshots", m_snapshot));
        const auto r =
            m_server.request("POST", "/api/sandboxes", toJson({{"snapshotId", m_snapshot}}));
        QVERIFY2(isError(r, 404, "NOT_FOUND"), qPrintable(describe(r)));
        // its files are gone from the data directory (when this user can look)
        QTRY_VERIFY(!QFileInfo::exists(m_server.dataDir() + "/files/" + m_snapshot) ||
                    m_server.runsAsOtherUser());
    }
};

QTEST_GUILESS_MAIN(TestApiSnapshots)
#include "tst_api_snapshots.moc"
