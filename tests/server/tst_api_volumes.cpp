// Volumes through the API: create / getOrCreate, list, get by name or id, grow only, delete,
// the /workspace mount, one sandbox at a time, files that outlive their sandbox.
#include "support_http.h"

#include <QDateTime>
#include <QFile>
#include <csignal>

using lizard::test::createSandbox;
using lizard::test::describe;
using lizard::test::isError;
using lizard::test::jsonArray;
using lizard::test::jsonObject;
using lizard::test::LocalServer;
using lizard::test::toJson;

class TestApiVolumes : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    QString m_project;             // id
    LocalServer::Response m_probe; // the answer to a first create: can this host make sandboxes?

    QString volumes() const { return "/api/projects/" + m_project + "/volumes"; }

    QJsonObject createVolume(const QString& name, int sizeGb = 1)
    {
        const auto r =
            m_server.request("POST", volumes(), toJson({{"name", name}, {"sizeGb", sizeGb}}));
        if (r.status != 200) {
            qWarning().noquote() << "create" << name << describe(r);
            return {};
        }
        return jsonObject(r);
    }

    LocalServer::Response exec(const QString& sandbox, const QJsonObject& body)
    {
        return m_server.request("POST", "/api/sandboxes/" + sandbox + "/exec", toJson(body));
    }

    static bool hasCode(const LocalServer::Response& r, int status, const QString& code)
    {
        return r.status == status && jsonObject(r).value("code").toString() == code &&
               !jsonObject(r).value("message").toString().isEmpty();
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        const auto p = m_server.request("POST", "/api/projects", R"({"name":"volumes"})");
        QCOMPARE(p.status, 200);
        m_project = jsonObject(p).value("id").toString();
        m_probe = m_server.request("POST", "/api/sandboxes", "{}");
        if (m_probe.status == 200)
            m_server.request("DELETE",
                             "/api/sandboxes/" + jsonObject(m_probe).value("sandboxId").toString());
    }

    void createHasTheDocumentedShape()
    {
        const auto r = m_server.request("POST", volumes(), R"({"name":"shape","sizeGb":2})");
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        const QJsonObject v = jsonObject(r);
        QVERIFY(v.value("id").toString().startsWith("vol_"));
        QCOMPARE(v.value("projectId").toString(), m_project);
        QCOMPARE(v.value("name").toString(), QStringLiteral("shape"));
        QCOMPARE(v.value("sizeGb").toInt(), 2);
        QCOMPARE(v.value("sizeMb").toInt(), 2048);
        QCOMPARE(v.value("region").toString(), QStringLiteral("local"));
        QCOMPARE(v.value("status").toString(), QStringLiteral("available"));
        QVERIFY(v.contains("attachedTo") && v.value("attachedTo").isNull());
        QVERIFY(v.value("sizeEnforced").isBool());
        const QDateTime created =
            QDateTime::fromString(v.value("createdAt").toString(), Qt::ISODateWithMs);
        QVERIFY(qAbs(created.msecsTo(QDateTime::currentDateTimeUtc())) < 60000);
        // default size
        QCOMPARE(
            m_server.request("POST", volumes(), R"({"name":"default-size","sizeGb":0})").status,
            400); // 0 GB is refused...
        const auto r5 = m_server.request("POST", volumes(), R"({"name":"default-size"})");
        QCOMPARE(jsonObject(r5).value("sizeGb").toInt(), 5); // ...absent means 5
    }

    void getByNameOrIdAndList()
    {
        const QJsonObject v = createVolume("lookup");
        const QString id = v.value("id").toString();
        for (const QString& ref : {QStringLiteral("lookup"), id}) {
            const auto r = m_server.request("GET", volumes() + "/" + ref);
            QVERIFY2(r.status == 200, qPrintable(describe(r)));
            QCOMPARE(jsonObject(r), v);
        }
        // the project may be addressed by its slug too
        QCOMPARE(jsonObject(m_server.request("GET", "/api/projects/volumes/volumes/lookup")), v);
        bool listed = false;
        for (const auto& item : jsonArray(m_server.request("GET", volumes())))
            listed = listed || item.toObject() == v;
        QVERIFY(listed);
        // other projects do not see it
        const QString def = jsonArray(m_server.request("GET", "/api/projects"))
                                .first()
                                .toObject()
                                .value("id")
                                .toString();
        QVERIFY(isError(m_server.request("GET", "/api/projects/" + def + "/volumes/lookup"), 404,
                        "NOT_FOUND"));
        QVERIFY(isError(m_server.request("GET", volumes() + "/missing"), 404, "NOT_FOUND"));
        QVERIFY(isError(m_server.request("GET", "/api/projects/nope/volumes"), 404, "NOT_FOUND"));
    }

    void nameIsTheKey()
    {
        const QJsonObject v = createVolume("keyed", 3);
        QVERIFY(!v.isEmpty());
        QVERIFY(isError(m_server.request("POST", volumes(), R"({"name":"keyed","sizeGb":1})"), 409,
                        "VOLUME_EXISTS"));
        // getOrCreate returns the existing one as it is (its size too)
        const auto again = m_server.request("POST", volumes(),
                                            R"({"name":"keyed","sizeGb":9,"getOrCreate":true})");
        QCOMPARE(again.status, 200);
        QCOMPARE(jsonObject(again), v);
        const auto fresh = m_server.request("POST", volumes(),
                                            R"({"name":"fresh","sizeGb":4,"getOrCreate":true})");
        QCOMPARE(fresh.status, 200);
        QCOMPARE(jsonObject(fresh).value("sizeGb").toInt(), 4);
    }

    void badRequests_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("code");
        QTest::newRow("no name") << QByteArray(R"({"sizeGb":1})") << "INVALID_ARGUMENT";
        QTest::newRow("upper case") << QByteArray(R"({"name":"Data"})") << "INVALID_ARGUMENT";
        QTest::newRow("leading dash") << QByteArray(R"({"name":"-data"})") << "INVALID_ARGUMENT";
        QTest::newRow("slash") << QByteArray(R"({"name":"a/b"})") << "INVALID_ARGUMENT";
        QTest::newRow("65 chars") << QByteArray(R"({"name":")" + QByteArray(65, 'a') + R"("})")
                                  << "INVALID_ARGUMENT";
        QTest::newRow("size 0") << QByteArray(R"({"name":"s","sizeGb":0})")
                                << "invalid_volume_size";
        QTest::newRow("size 1.5") << QByteArray(R"({"name":"s","sizeGb":1.5})")
                                  << "invalid_volume_size";
        QTest::newRow("size text")
            << QByteArray(R"({"name":"s","sizeGb":"5"})") << "invalid_volume_size";
        QTest::newRow("size 51") << QByteArray(R"({"name":"s","sizeGb":51})") << "volume_too_large";
        QTest::newRow("region") << QByteArray(R"({"name":"s","region":"us-east-1"})")
                                << "INVALID_ARGUMENT";
        QTest::newRow("not json") << QByteArray("{") << "INVALID_JSON";
    }

    void badRequests()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, code);
        const int before = jsonArray(m_server.request("GET", volumes())).size();
        const auto r = m_server.request("POST", volumes(), body);
        QVERIFY2(hasCode(r, 400, code), qPrintable(describe(r)));
        QCOMPARE(jsonArray(m_server.request("GET", volumes())).size(), before);
    }

    void growOnly()
    {
        const QJsonObject v = createVolume("grow", 1);
        const QString path = volumes() + "/grow";
        const auto grown = m_server.request("PATCH", path, R"({"sizeGb":3})");
        QVERIFY2(grown.status == 200, qPrintable(describe(grown)));
        QCOMPARE(jsonObject(grown).value("sizeGb").toInt(), 3);
        QCOMPARE(jsonObject(grown).value("sizeEnforced"), v.value("sizeEnforced"));
        QCOMPARE(jsonObject(m_server.request("GET", path)).value("sizeGb").toInt(), 3);
        const auto shrink = m_server.request("PATCH", path, R"({"sizeGb":2})");
        QVERIFY2(hasCode(shrink, 400, "volume_shrink_unsupported"), qPrintable(describe(shrink)));
        QVERIFY(hasCode(m_server.request("PATCH", path, R"({"sizeGb":0})"), 400,
                        "invalid_volume_size"));
        QVERIFY(hasCode(m_server.request("PATCH", path, "{}"), 400, "invalid_volume_size"));
        QVERIFY(
            hasCode(m_server.request("PATCH", path, R"({"sizeGb":99})"), 400, "volume_too_large"));
        QCOMPARE(
            jsonObject(m_server.request("PATCH", path, R"({"sizeGb":3})")).value("sizeGb").toInt(),
            3);
        QCOMPARE(jsonObject(m_server.request("GET", path)).value("sizeGb").toInt(), 3);
        QVERIFY(isError(m_server.request("PATCH", volumes() + "/missing", R"({"sizeGb":3})"), 404,
                        "NOT_FOUND"));
    }

    void deleteForgetsIt()
    {
        const QString id = createVolume("doomed").value("id").toString();
        QCOMPARE(m_server.request("DELETE", volumes() + "/doomed").status, 204);
        QVERIFY(isError(m_server.request("GET", volumes() + "/" + id), 404, "NOT_FOUND"));
        QVERIFY(isError(m_server.request("DELETE", volumes() + "/doomed"), 404, "NOT_FOUND"));
        QVERIFY(!QFileInfo::exists(m_server.dataDir() + "/volumes/" + id));
        // the name is free again
        QVERIFY(!createVolume("doomed").isEmpty());
    }

    void createRefusesUnknownVolume()
    {
        const auto r = m_server.request("POST", "/api/sandboxes",
                                        toJson({{"projectId", m_project}, {"volumeName", "none"}}));
        QVERIFY2(isError(r, 404, "NOT_FOUND"), qPrintable(describe(r)));
        createVolume("elsewhere");
        const auto other =
            m_server.request("POST", "/api/sandboxes", R"({"volumeName":"elsewhere"})");
        QVERIFY2(isError(other, 404, "NOT_FOUND"), qPrintable(describe(other))); // default project
    }

    void filesOutliveTheSandbox()
    {
        LIZ_REQUIRE_CREATED(m_probe);
        const QString volumeId = createVolume("work").value("id").toString();
        const QJsonObject body{{"projectId", m_project}, {"volumeName", "work"}};
        const QString first = createSandbox(m_server, body);
        QVERIFY(!first.isEmpty());
        auto v = jsonObject(m_server.request("GET", volumes() + "/work"));
        QCOMPARE(v.value("attachedTo").toString(), first);
        QCOMPARE(v.value("status").toString(), QStringLiteral("attached"));
        // a fresh volume is empty; root and the sandbox user can both write there
        auto empty = exec(first, {{"cmd", "ls -A /workspace"}});
        QCOMPARE(jsonObject(empty).value("stdout").toString(), QString());
        QCOMPARE(jsonObject(empty).value("exitCode").toInt(), 0);
        auto r =
            exec(first,
                 {{"cmd", "echo from-root > /workspace/a.txt && mount | grep -c ' /workspace '"}});
        QVERIFY2(jsonObject(r).value("exitCode").toInt() == 0, qPrintable(describe(r)));
        r = exec(first,
                 {{"cmd", "mkdir -p /workspace/dir && echo from-user > /workspace/dir/b.txt"},
                  {"user", "user"}});
        QVERIFY2(jsonObject(r).value("exitCode").toInt() == 0, qPrintable(describe(r)));
        // a second sandbox cannot take it while the first runs
        const auto busy = m_server.request("POST", "/api/sandboxes", toJson(body));
        QVERIFY2(isError(busy, 409, "VOLUME_ATTACHED"), qPrintable(describe(busy)));
        QVERIFY(busy.body.contains(first.toUtf8()));
        // nor can it be deleted
        QVERIFY(isError(m_server.request("DELETE", volumes() + "/work"), 409, "VOLUME_ATTACHED"));

        QCOMPARE(m_server.request("DELETE", "/api/sandboxes/" + first).status, 204);
        v = jsonObject(m_server.request("GET", volumes() + "/work"));
        QVERIFY(v.value("attachedTo").isNull());
        QCOMPARE(v.value("status").toString(), QStringLiteral("available"));

        // by id this time; the files are there, with their owners, and still writable
        const QString second =
            createSandbox(m_server, {{"projectId", m_project}, {"volumeId", volumeId}});
        QVERIFY(!second.isEmpty());
        r = exec(second, {{"cmd", "cat /workspace/a.txt /workspace/dir/b.txt"}});
        QCOMPARE(jsonObject(r).value("stdout").toString(),
                 QStringLiteral("from-root\nfrom-user\n"));
        r = exec(second, {{"cmd", "echo more >> /workspace/dir/b.txt && cat /workspace/dir/b.txt"},
                          {"user", "user"}});
        QVERIFY2(jsonObject(r).value("stdout").toString() == "from-user\nmore\n",
                 qPrintable(describe(r)));
        QCOMPARE(
            jsonObject(m_server.request("GET", volumes() + "/work")).value("attachedTo").toString(),
            second);
        // a sandbox without a volume has no /workspace mount
        const QString plain = createSandbox(m_server, {{"projectId", m_project}});
        r = exec(plain, {{"cmd", "ls /workspace"}});
        QVERIFY(jsonObject(r).value("exitCode").toInt() != 0);
        m_server.request("DELETE", "/api/sandboxes/" + plain);
        QCOMPARE(m_server.request("DELETE", "/api/sandboxes/" + second).status, 204);
        QCOMPARE(m_server.request("DELETE", volumes() + "/work").status, 204);
    }

    void releasedWhenTheLifetimeEnds()
    {
        LIZ_REQUIRE_CREATED(m_probe);
        createVolume("brief");
        const QString id = createSandbox(
            m_server, {{"projectId", m_project}, {"volumeName", "brief"}, {"timeoutMs", 1500}});
        QVERIFY(!id.isEmpty());
        QCOMPARE(jsonObject(m_server.request("GET", volumes() + "/brief"))
                     .value("attachedTo")
                     .toString(),
                 id);
        QTRY_VERIFY_WITH_TIMEOUT(
            jsonObject(m_server.request("GET", volumes() + "/brief")).value("attachedTo").isNull(),
            8000);
        const QString next =
            createSandbox(m_server, {{"projectId", m_project}, {"volumeName", "brief"}});
        QVERIFY(!next.isEmpty());
        m_server.request("DELETE", "/api/sandboxes/" + next);
    }

    void growWhileAttached()
    {
        LIZ_REQUIRE_CREATED(m_probe);
        const QJsonObject v = createVolume("online", 1);
        QString id = createSandbox(m_server, {{"projectId", m_project}, {"volumeName", "online"}});
        QVERIFY(!id.isEmpty());
        auto sizeKb = [&] {
            const auto r = exec(id, {{"cmd", "df -k --output=size /workspace | tail -1"}});
            return jsonObject(r).value("stdout").toString().trimmed().toLongLong();
        };
        const qint64 before = sizeKb();
        const auto grown = m_server.request("PATCH", volumes() + "/online", R"({"sizeGb":2})");
        QVERIFY2(grown.status == 200, qPrintable(describe(grown)));
        QCOMPARE(jsonObject(grown).value("attachedTo").toString(), id);
        if (!v.value("sizeEnforced").toBool()) {
            QVERIFY(!jsonObject(grown).contains("resizeOnNextAttach"));
            m_server.request("DELETE", "/api/sandboxes/" + id);
            return;
        }
        // an ext4 image: a hard cap, grown online where the host allows it (CAP_SYS_RESOURCE),
        // else when it is next attached
        QVERIFY2(before > 900000 && before < 1100000, qPrintable(QString::number(before)));
        auto fill = [&](const QString& sandbox) {
            const auto full = exec(sandbox, {{"cmd", "fallocate -l 2500M /workspace/big; "
                                                     "s=$?; rm -f /workspace/big; exit $s"}});
            return jsonObject(full).value("exitCode").toInt();
        };
        QVERIFY(fill(id) != 0); // no space left: the size is enforced
        QString holder = id;
        if (jsonObject(grown).value("resizeOnNextAttach").toBool()) {
            QCOMPARE(sizeKb(), before);
            m_server.request("DELETE", "/api/sandboxes/" + id);
            holder = createSandbox(m_server, {{"projectId", m_project}, {"volumeName", "online"}});
            QVERIFY(!holder.isEmpty());
            id = holder;
            QVERIFY(!jsonObject(m_server.request("GET", volumes() + "/online"))
                         .contains("resizeOnNextAttach"));
        }
        QTRY_VERIFY_WITH_TIMEOUT(sizeKb() > 1900000, 5000);
        QVERIFY(fill(holder) != 0);
        const auto fits =
            exec(holder, {{"cmd", "fallocate -l 1500M /workspace/big && rm /workspace/big"}});
        QCOMPARE(jsonObject(fits).value("exitCode").toInt(), 0);
        m_server.request("DELETE", "/api/sandboxes/" + id);
    }

    void volumesSurviveARestart()
    {
        LIZ_REQUIRE_CREATED(m_probe);
        createVolume("kept");
        const QString id =
            createSandbox(m_server, {{"projectId", m_project}, {"volumeName", "kept"}});
        QVERIFY(!id.isEmpty());
        exec(id, {{"cmd", "echo kept > /workspace/k.txt"}});
        QVERIFY2(m_server.restart(), qPrintable(m_server.errorString()));
        // adopted: still attached; then released by a kill
        QCOMPARE(
            jsonObject(m_server.request("GET", volumes() + "/kept")).value("attachedTo").toString(),
            id);
        QCOMPARE(m_server.request("DELETE", "/api/sandboxes/" + id).status, 204);
        const QString next =
            createSandbox(m_server, {{"projectId", m_project}, {"volumeName", "kept"}});
        QVERIFY(!next.isEmpty());
        QCOMPARE(
            jsonObject(exec(next, {{"cmd", "cat /workspace/k.txt"}})).value("stdout").toString(),
            QStringLiteral("kept\n"));
        m_server.request("DELETE", "/api/sandboxes/" + next);
    }

    void releasedWhenFoundDeadAtRestart()
    {
        LIZ_REQUIRE_CREATED(m_probe);
        createVolume("orphaned");
        const QString id =
            createSandbox(m_server, {{"projectId", m_project}, {"volumeName", "orphaned"}});
        QVERIFY(!id.isEmpty());
        QFile pidFile(m_server.dataDir() + "/sandboxes/" + id + "/init.pid");
        QVERIFY2(pidFile.open(QIODevice::ReadOnly), qPrintable(pidFile.fileName()));
        const qint64 pid = pidFile.readAll().split(' ').first().toLongLong();
        QVERIFY(pid > 1);
        m_server.stop();
        QVERIFY(::kill(pid_t(pid), SIGKILL) == 0); // the sandbox dies while lizard-local is down
        QVERIFY2(m_server.restart(), qPrintable(m_server.errorString()));
        const auto v = jsonObject(m_server.request("GET", volumes() + "/orphaned"));
        QVERIFY2(v.value("attachedTo").isNull(), qPrintable(QJsonDocument(v).toJson()));
        const QString next =
            createSandbox(m_server, {{"projectId", m_project}, {"volumeName", "orphaned"}});
        QVERIFY(!next.isEmpty());
        m_server.request("DELETE", "/api/sandboxes/" + next);
    }

    void cleanupTestCase()
    {
        for (const auto& s : jsonArray(m_server.request("GET", "/api/sandboxes")))
            m_server.request("DELETE",
                             "/api/sandboxes/" + s.toObject().value("sandboxId").toString());
        m_server.stop();
    }
};

QTEST_GUILESS_MAIN(TestApiVolumes)
#include "tst_api_volumes.moc"
