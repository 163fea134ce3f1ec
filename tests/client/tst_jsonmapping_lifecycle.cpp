// JSON of the lifecycle calls: snapshots, fork answers, volumes, and the request
// bodies the official SDK sends for them (restore, snapshot, fork, volumes).

#include "client/jsonmapping.h"

#include <QTest>
#include <nlohmann/json.hpp>

using namespace lizard::client;
using Json = nlohmann::json;

#define QCOMPARE_JSON(actual, expected)                                                            \
    QCOMPARE(QString::fromStdString((actual).dump()), QString::fromStdString((expected).dump()))

namespace {
Json parsedLifecycleBody(const QByteArray& body)
{
    return Json::parse(body.toStdString());
}
} // namespace

class TestJsonMappingLifecycle : public QObject
{
    Q_OBJECT
private slots:
    void snapshotFull();
    void snapshotMinimal();
    void snapshotList();
    void forkEntries();
    void volumeFull();
    void volumeCreatedAtIsoOrMs_data();
    void volumeCreatedAtIsoOrMs();
    void wrongShapes_data();
    void wrongShapes();
    void restoreBody();
    void volumeOnCreateBody();
    void lifecycleBodies();
};

void TestJsonMappingLifecycle::snapshotFull()
{
    const auto s =
        parseSnapshot(R"({"id":"snap_1","name":"before upgrade","projectId":"p1","workspaceId":"ws",
        "region":"local","sourceSandboxId":"sb_1","status":"failed","poolSize":5,"readyCount":0,
        "error":"disk full","cpus":2,"memoryMb":4096,"createdAt":1767323045678,"scope":"project",
        "sourceVolume":false,"createdBy":"u1","sizeBytes":104857600})");
    QVERIFY2(s.ok(), qPrintable(s.ok() ? QString() : s.error().message));
    const Snapshot& v = s.value();
    QCOMPARE(v.id, QString("snap_1"));
    QCOMPARE(v.name, QString("before upgrade"));
    QCOMPARE(v.sourceSandboxId, QString("sb_1"));
    QCOMPARE(v.status, QString("failed"));
    QCOMPARE(v.error, QString("disk full"));
    QCOMPARE(v.poolSize, 5);
    QCOMPARE(v.memoryMb, 4096);
    QCOMPARE(v.createdAt.toMSecsSinceEpoch(), qint64(1767323045678));
    QCOMPARE(v.sizeBytes, qint64(104857600));
    QVERIFY(v.sourceVolume.has_value());
    QCOMPARE(*v.sourceVolume, false);
    QCOMPARE(v.createdBy, QString("u1"));
}

void TestJsonMappingLifecycle::snapshotMinimal()
{
    // The cloud's nulls (error, sourceVolume, createdBy) and no size.
    const auto s =
        parseSnapshot(R"({"id":"snap_2","status":"building","error":null,"sourceVolume":null,
        "createdBy":null})");
    QVERIFY(s.ok());
    QCOMPARE(s.value().status, QString("building"));
    QVERIFY(s.value().error.isEmpty());
    QVERIFY(!s.value().sourceVolume.has_value());
    QCOMPARE(s.value().sizeBytes, qint64(-1));
    QVERIFY(!s.value().createdAt.isValid());
}

void TestJsonMappingLifecycle::snapshotList()
{
    const auto list =
        parseSnapshots(R"([{"id":"a","status":"ready"},{"id":"b","status":"building"}])");
    QVERIFY(list.ok());
    QCOMPARE(list.value().size(), 2);
    QCOMPARE(list.value().at(1).id, QString("b"));
    QVERIFY(parseSnapshots("[]").ok());
    QVERIFY(!parseSnapshots(R"({"id":"a"})").ok()); // not an array
}

void TestJsonMappingLifecycle::forkEntries()
{
    // sandbox with sandboxId, sandbox with only id (the SDK accepts both), an error, and a
    // sandbox object without any id (the SDK treats it as "fork failed").
    const auto list =
        parseForkEntries(R"([{"sandbox":{"sandboxId":"sb_a","status":"running","template":"base"}},
        {"sandbox":{"id":"sb_b"}},
        {"error":"limit of 2 running sandboxes reached","code":"SANDBOX_LIMIT","status":429,"limit":2,
         "running":2,"unit":"sandboxes","retryAfterS":5},
        {"sandbox":{"status":"running"}}])");
    QVERIFY2(list.ok(), qPrintable(list.ok() ? QString() : list.error().message));
    QCOMPARE(list.value().size(), 4);
    QVERIFY(list.value().at(0).sandbox.has_value());
    QCOMPARE(list.value().at(0).sandbox->sandboxId, QString("sb_a"));
    QCOMPARE(list.value().at(0).sandbox->status, QString("running"));
    QCOMPARE(list.value().at(1).sandbox->sandboxId, QString("sb_b"));
    QVERIFY(!list.value().at(2).sandbox.has_value());
    QCOMPARE(list.value().at(2).error, QString("limit of 2 running sandboxes reached"));
    QCOMPARE(list.value().at(2).code, QString("SANDBOX_LIMIT"));
    QCOMPARE(list.value().at(2).httpStatus, 429);
    QCOMPARE(list.value().at(2).limit, 2);
    QCOMPARE(list.value().at(2).running, 2);
    QCOMPARE(list.value().at(2).retryAfterS, 5);
    QCOMPARE(list.value().at(3).limit, -1);
    QVERIFY(!list.value().at(3).sandbox.has_value());
    QCOMPARE(list.value().at(3).error, QString("fork failed"));
}

void TestJsonMappingLifecycle::volumeFull()
{
    const auto v =
        parseVolume(R"({"id":"vol_1","projectId":"p1","name":"scratch","sizeGb":10,"region":"local",
        "status":"ready","attachedTo":"sb_9","createdAt":"2026-01-02T03:04:05Z","sizeEnforced":false})");
    QVERIFY(v.ok());
    QCOMPARE(v.value().name, QString("scratch"));
    QCOMPARE(v.value().sizeGb, 10);
    QCOMPARE(v.value().attachedTo, QString("sb_9"));
    QCOMPARE(v.value().sizeEnforced, std::optional<bool>(false));
    const auto free = parseVolumes(
        R"([{"id":"vol_2","name":"x","sizeGb":5,"status":"ready","attachedTo":null}])");
    QVERIFY(free.ok());
    QVERIFY(free.value().at(0).attachedTo.isEmpty());
    QVERIFY(!free.value().at(0).sizeEnforced.has_value());
}

void TestJsonMappingLifecycle::volumeCreatedAtIsoOrMs_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::newRow("iso") << QByteArray(R"({"id":"v","createdAt":"2026-01-02T03:04:05.000Z"})");
    QTest::newRow("unix ms (older volumes)")
        << QByteArray(R"({"id":"v","createdAt":1767323045000})");
}

void TestJsonMappingLifecycle::volumeCreatedAtIsoOrMs()
{
    QFETCH(QByteArray, body);
    const auto v = parseVolume(body);
    QVERIFY(v.ok());
    QCOMPARE(v.value().createdAt, QDateTime(QDate(2026, 1, 2), QTime(3, 4, 5), Qt::UTC));
}

void TestJsonMappingLifecycle::wrongShapes_data()
{
    QTest::addColumn<int>("kind"); // 0 snapshot, 1 volume, 2 fork
    QTest::addColumn<QByteArray>("body");
    QTest::newRow("snapshot without id") << 0 << QByteArray(R"({"name":"x"})");
    QTest::newRow("snapshot status number") << 0 << QByteArray(R"({"id":"s","status":3})");
    QTest::newRow("snapshot createdAt bool") << 0 << QByteArray(R"({"id":"s","createdAt":true})");
    QTest::newRow("volume sizeGb text") << 1 << QByteArray(R"({"id":"v","sizeGb":"10"})");
    QTest::newRow("volume attachedTo number") << 1 << QByteArray(R"({"id":"v","attachedTo":7})");
    QTest::newRow("fork not an array") << 2 << QByteArray(R"({"sandbox":{"sandboxId":"x"}})");
    QTest::newRow("fork entry not an object") << 2 << QByteArray(R"(["sb_x"])");
    QTest::newRow("not JSON") << 1 << QByteArray("<html>");
}

void TestJsonMappingLifecycle::wrongShapes()
{
    QFETCH(int, kind);
    QFETCH(QByteArray, body);
    ApiError error;
    if (kind == 0) {
        const auto o = parseSnapshot(body, "Get snapshot");
        QVERIFY(!o.ok());
        error = o.error();
    } else if (kind == 1) {
        const auto o = parseVolume(body, "Get volume");
        QVERIFY(!o.ok());
        error = o.error();
    } else {
        const auto o = parseForkEntries(body, "Fork sandbox");
        QVERIFY(!o.ok());
        error = o.error();
    }
    QCOMPARE(error.kind, ApiError::Kind::Protocol);
    QVERIFY(!error.what.isEmpty());
    QVERIFY(!error.message.isEmpty());
}

void TestJsonMappingLifecycle::restoreBody()
{
    // As the SDK's Sandbox.restore(): snapshotId, projectId, timeoutMs; no template, no size.
    CreateSandboxRequest req;
    req.projectId = "p1";
    req.snapshotId = "snap_1";
    req.size = "small";
    req.timeoutMs = 600000;
    QCOMPARE_JSON(parsedLifecycleBody(createSandboxBody(req)),
                  (Json{{"snapshotId", "snap_1"}, {"projectId", "p1"}, {"timeoutMs", 600000}}));
}

void TestJsonMappingLifecycle::volumeOnCreateBody()
{
    CreateSandboxRequest req;
    req.projectId = "p1";
    req.volumeName = "scratch";
    req.timeoutMs = 0;
    QCOMPARE_JSON(parsedLifecycleBody(createSandboxBody(req)), (Json{{"template", "base"},
                                                                     {"projectId", "p1"},
                                                                     {"timeoutMs", 0},
                                                                     {"volumeName", "scratch"}}));
    req.volumeName.clear();
    req.volumeId = "vol_1";
    QCOMPARE(
        QString::fromStdString(parsedLifecycleBody(createSandboxBody(req)).value("volumeId", "")),
        QString("vol_1"));
    req.volumeId.clear();
    QVERIFY(
        !parsedLifecycleBody(createSandboxBody(req)).contains("volumeId")); // not sent when empty
}

void TestJsonMappingLifecycle::lifecycleBodies()
{
    QCOMPARE_JSON(parsedLifecycleBody(snapshotBody("nightly \"one\"")),
                  (Json{{"name", "nightly \"one\""}, {"poolSize", 5}}));
    QCOMPARE_JSON(parsedLifecycleBody(forkBody(3, 0)), (Json{{"count", 3}, {"timeoutMs", 0}}));
    QCOMPARE_JSON(parsedLifecycleBody(createVolumeBody("scratch", 10, false)),
                  (Json{{"name", "scratch"}, {"sizeGb", 10}}));
    QCOMPARE_JSON(parsedLifecycleBody(createVolumeBody("scratch", 5, true)),
                  (Json{{"name", "scratch"}, {"sizeGb", 5}, {"getOrCreate", true}}));
    QCOMPARE_JSON(parsedLifecycleBody(resizeVolumeBody(20)), (Json{{"sizeGb", 20}}));
}

QTEST_APPLESS_MAIN(TestJsonMappingLifecycle)
#include "tst_jsonmapping_lifecycle.moc"
