// Warm pools: a create that a template's pool can serve claims a copy, and the sandbox it gets
// shows nothing of the copy's life (envs, processes, files, activity, logs); one the pool cannot
// serve starts cold; pools refill, keep their size across a restart, end their copies with the
// server, after a kill -9, when paused or set to 0; snapshots' pools with the SDK's fields; and a
// pool that cannot fill says why (memory, missing packages).
#include "lifecycle_support.h"
#include "support/wait.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QSet>
#include <QThread>

using lizard::test::describe;
using lizard::test::jsonArray;
using lizard::test::jsonObject;
using lizard::test::LocalServer;
using lizard::test::SandboxApi;
using lizard::test::toJson;
using lizard::test::waitUntil;

class TestPools : public QObject
{
    Q_OBJECT

    // Pools on, with no memory floor: the test host's free memory must not decide the outcome.
    const QStringList m_poolArgs{"--pool-max",         "6", "--pool-base",        "2",
                                 "--pool-interpreter", "0", "--pool-min-free-mb", "0"};
    LocalServer m_server;
    SandboxApi m_api{m_server};

    QJsonObject templatePool(const QString& name)
    {
        return jsonObject(m_server.request("GET", "/api/templates/" + name));
    }
    bool poolHolds(const QString& name, int ready)
    {
        return waitUntil([&] { return templatePool(name).value("readyCount").toInt() == ready; },
                         60000, 100);
    }
    QJsonObject create(const QJsonObject& body)
    {
        const auto r = m_server.request("POST", "/api/sandboxes", toJson(body));
        if (r.status != 200)
            qWarning() << describe(r);
        return jsonObject(r);
    }
    // Sandboxes on disk that the API does not list: the idle warm copies.
    int copiesOnDisk()
    {
        QSet<QString> listed;
        for (const auto& v : jsonArray(m_server.request("GET", "/api/sandboxes")))
            listed << v.toObject().value("sandboxId").toString();
        int n = 0;
        for (const QString& d :
             QDir(m_server.dataDir() + "/sandboxes").entryList(QDir::Dirs | QDir::NoDotAndDotDot))
            n += listed.contains(d) ? 0 : 1;
        return n;
    }
    bool copiesBecome(int n)
    {
        return waitUntil([&] { return copiesOnDisk() == n; }, 30000, 100);
    }
    // What a user looks at first in a new sandbox.
    QString firstLook(const QString& id)
    {
        // The processes are counted by the shell itself (a glob, no fork), so that the pipeline
        // that looks does not count itself.
        return m_api.run(id, "ls -A /tmp /var/tmp /root /home/user; env | cut -d= -f1 | sort;"
                             "n=0; for p in /proc/[0-9]*; do [ \"${p#/proc/}\" = \"$$\" ] || "
                             "n=$((n+1)); done; echo processes $n");
    }
    void restartWith(const QStringList& args)
    {
        m_server.stop();
        QVERIFY2(m_server.start(args), qPrintable(m_server.errorString()));
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start(m_poolArgs), qPrintable(m_server.errorString()));
        const auto probe = m_server.request("POST", "/api/sandboxes", R"({"size":"nano"})");
        LIZ_REQUIRE_CREATED(probe);
        m_api.kill(jsonObject(probe).value("sandboxId").toString());
        QVERIFY2(poolHolds("base", 2), qPrintable(toJson(templatePool("base"))));
    }

    void aClaimedCopyLooksLikeAFreshCreate()
    {
        const QJsonObject warm = create({{"envs", QJsonObject{{"GREETING", "hello"}}},
                                         {"metadata", QJsonObject{{"task", "t1"}}},
                                         {"timeoutMs", 120000}});
        QCOMPARE(warm.value("fromPool").toBool(), true);
        const QString id = warm.value("sandboxId").toString();
        QCOMPARE(warm.value("metadata").toObject().value("task").toString(), "t1");
        QVERIFY(!warm.value("endAt").isNull());
        // A cold create of the same request but another size: the reference of "fresh".
        const QJsonObject cold = create({{"size", "small"},
                                         {"envs", QJsonObject{{"GREETING", "hello"}}},
                                         {"timeoutMs", 120000}});
        QCOMPARE(cold.value("fromPool").toBool(), false);
        const QString coldId = cold.value("sandboxId").toString();

        QCOMPARE(m_api.run(id, "echo $GREETING"), "hello\n");
        QCOMPARE(firstLook(id), firstLook(coldId));
        QVERIFY(!m_api.run(id, "cat /root/.bash_history /home/user/.bash_history 2>&1")
                     .contains("<HTTP"));
        // The activity log starts with the create; the system log with one line that says where
        // the sandbox came from.
        const QJsonArray activity =
            jsonObject(m_server.request("GET", "/api/sandboxes/" + id + "/activity"))
                .value("entries")
                .toArray();
        QVERIFY(!activity.isEmpty());
        QCOMPARE(activity.first().toObject().value("kind").toString(), "create");
        QCOMPARE(activity.first().toObject().value("warm").toBool(), true);
        QCOMPARE(activity.first().toObject().value("seq").toInt(), 1);
        const auto logs = m_server.request("GET", "/api/sandboxes/" + id + "/logs?follow=false");
        QCOMPARE(logs.status, 200);
        QVERIFY2(logs.body.count("\"message\"") == 1 && logs.body.contains("from a warm copy"),
                 logs.body.constData());
        m_api.kill(id);
        m_api.kill(coldId);
    }

    void aCreateThePoolCannotServeStartsCold()
    {
        QVERIFY(poolHolds("base", 2));
        for (const QJsonObject& body :
             {QJsonObject{{"internetAccess", false}}, QJsonObject{{"diskGb", 3}},
              QJsonObject{{"template", "interpreter"}}, QJsonObject{{"shmMb", 32}}}) {
            const QJsonObject made = create(body);
            QVERIFY2(made.contains("sandboxId"), qPrintable(toJson(body)));
            QVERIFY2(!made.value("fromPool").toBool(), qPrintable(toJson(body)));
            m_api.kill(made.value("sandboxId").toString());
        }
        QCOMPARE(templatePool("base").value("readyCount").toInt(), 2);
    }

    void poolsRefillAfterABurst()
    {
        QVERIFY(poolHolds("base", 2));
        QStringList ids;
        QList<bool> warm;
        for (int i = 0; i < 3; ++i) {
            const QJsonObject made = create({});
            ids << made.value("sandboxId").toString();
            warm << made.value("fromPool").toBool();
        }
        QCOMPARE(warm, (QList<bool>{true, true, false}));
        QVERIFY2(poolHolds("base", 2), qPrintable(toJson(templatePool("base"))));
        QCOMPARE(copiesOnDisk(), 2);
        for (const QString& id : ids)
            m_api.kill(id);
    }

    void aTemplatePoolSizeIsASettingThatSurvivesARestart()
    {
        auto bad = m_server.request("PATCH", "/api/templates/base", R"({"poolSize":-1})");
        QCOMPARE(bad.status, 400);
        QCOMPARE(jsonObject(bad).value("code").toString(), "INVALID_ARGUMENT");
        QCOMPARE(m_server.request("PATCH", "/api/templates/nope", R"({"poolSize":1})").status, 404);
        const auto off = m_server.request("PATCH", "/api/templates/base", R"({"poolSize":0})");
        QCOMPARE(off.status, 200);
        QCOMPARE(jsonObject(off).value("poolSize").toInt(), 0);
        QVERIFY(copiesBecome(0));
        restartWith(m_poolArgs);
        QCOMPARE(templatePool("base").value("requestedPoolSize").toInt(), 0);
        QThread::msleep(1500);
        QCOMPARE(copiesOnDisk(), 0);
        QCOMPARE(m_server.request("PATCH", "/api/templates/base", R"({"poolSize":2})").status, 200);
        QVERIFY(poolHolds("base", 2));
    }

    void copiesEndWithTheServerAndAfterAKill()
    {
        QVERIFY(poolHolds("base", 2));
        const QStringList before =
            QDir(m_server.dataDir() + "/sandboxes").entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        QVERIFY(m_server.crash());
        QVERIFY2(m_server.start(m_poolArgs), qPrintable(m_server.errorString()));
        // The killed server's copies are orphans now: destroyed, and new ones made.
        QVERIFY(poolHolds("base", 2));
        QStringList after;
        const bool two = waitUntil(
            [&] {
                after = QDir(m_server.dataDir() + "/sandboxes")
                            .entryList(QDir::Dirs | QDir::NoDotAndDotDot);
                return after.size() == 2;
            },
            60000, 100);
        QVERIFY2(two,
                 qPrintable("before the kill: " + before.join(' ') + "; now: " + after.join(' ') +
                            "\n" + QString::fromUtf8(m_server.log().right(3000))));
        for (const QString& id : before)
            QVERIFY2(!after.contains(id), qPrintable(id));
        m_server.stop();
        QCOMPARE(QDir(m_server.dataDir() + "/sandboxes")
                     .entryList(QDir::Dirs | QDir::NoDotAndDotDot)
                     .size(),
                 0);
        QVERIFY2(m_server.start(m_poolArgs), qPrintable(m_server.errorString()));
    }

    void aSnapshotPoolHasTheSdkFields()
    {
        const QString source = create({}).value("sandboxId").toString();
        QVERIFY(!source.isEmpty());
        QCOMPARE(m_api.write(source, "/root/saved.txt", "kept"), 204);
        const auto taken = m_server.request("POST", "/api/sandboxes/" + source + "/snapshot",
                                            R"({"name":"pooled","poolSize":2})");
        QCOMPARE(taken.status, 200);
        const QString snap = jsonObject(taken).value("id").toString();
        QCOMPARE(jsonObject(taken).value("poolSize").toInt(), 2);
        auto view = [&] {
            return jsonObject(m_server.request("GET", "/api/sandbox-snapshots/" + snap));
        };
        QVERIFY2(
            waitUntil([&] { return view().value("status").toString() == "ready"; }, 60000, 100),
            qPrintable(toJson(view())));
        QCOMPARE(view().value("readyCount").toInt(), 2);

        QStringList restored;
        QList<bool> warm;
        for (int i = 0; i < 3; ++i) {
            const QJsonObject made =
                create({{"snapshotId", snap}, {"envs", QJsonObject{{"N", QString::number(i)}}}});
            restored << made.value("sandboxId").toString();
            warm << made.value("fromPool").toBool();
        }
        QCOMPARE(warm, (QList<bool>{true, true, false}));
        for (int i = 0; i < 3; ++i)
            QCOMPARE(m_api.run(restored[i], "cat /root/saved.txt; echo $N"),
                     "kept" + QString::number(i) + "\n");

        const auto paused = m_server.request("POST", "/api/sandbox-snapshots/" + snap + "/pause");
        QCOMPARE(paused.status, 200);
        QCOMPARE(jsonObject(paused).value("status").toString(), "paused");
        QThread::msleep(1500);
        QCOMPARE(view().value("warmCount").toInt(), 0);
        QCOMPARE(m_server.request("POST", "/api/sandbox-snapshots/" + snap + "/resume").status,
                 200);
        QVERIFY(waitUntil([&] { return view().value("readyCount").toInt() == 2; }, 60000, 100));
        const auto zero =
            m_server.request("PATCH", "/api/sandbox-snapshots/" + snap, R"({"poolSize":0})");
        QCOMPARE(jsonObject(zero).value("poolSize").toInt(), 0);
        QCOMPARE(jsonObject(zero).value("readyCount").toInt(), 1); // restorable from disk
        QVERIFY(waitUntil([&] { return view().value("warmCount").toInt() == 0; }, 30000, 100));
        QCOMPARE(
            m_server.request("PATCH", "/api/sandbox-snapshots/" + snap, R"({"poolSize":1})").status,
            200);
        QVERIFY(waitUntil([&] { return view().value("warmCount").toInt() == 1; }, 60000, 100));
        QCOMPARE(m_server.request("DELETE", "/api/sandbox-snapshots/" + snap).status, 204);
        QVERIFY(poolHolds("base", 2));
        QVERIFY(copiesBecome(2)); // the snapshot's copy went with it
        for (const QString& id : restored + QStringList{source})
            m_api.kill(id);
    }

    // The interpreter template's copies start their default Python kernel before the claim; the
    // claim's envs reach it through a file that only a claim with envs writes. The app's runner
    // (here) and the SDK's (tests/compat, kernels) use that kernel, and see what a fresh one has.
    void anInterpreterCopyHasItsKernelStarted()
    {
        restartWith({"--pool-max", "6", "--pool-base", "0", "--pool-interpreter", "1",
                     "--pool-min-free-mb", "0"});
        QVERIFY2(poolHolds("interpreter", 1), qPrintable(toJson(templatePool("interpreter"))));
        const QJsonObject warm =
            create({{"template", "interpreter"}, {"envs", QJsonObject{{"GREETING", "claimed"}}}});
        QCOMPARE(warm.value("fromPool").toBool(), true);
        const QString id = warm.value("sandboxId").toString();
        const QString ctx = "/tmp/.lizard-code/default-python";
        QCOMPARE(m_api.run(id, "tr '\\0' ' ' </proc/$(cat " + ctx + "/kernel.pid)/cmdline")
                     .contains("ipykernel_launcher -f " + ctx + "/kernel.json"),
                 true);
        QCOMPARE(m_api.run(id, "stat -c %a " + ctx + "/claim-envs.json; cat " + ctx +
                                   "/claim-envs.json"),
                 "600\n{\"GREETING\":\"claimed\"}");
        QJsonArray activity;
        QVERIFY(waitUntil( // written behind the answers
            [&] {
                activity = jsonObject(m_server.request("GET", "/api/sandboxes/" + id + "/activity"))
                               .value("entries")
                               .toArray();
                return !activity.isEmpty();
            },
            10000, 50));
        QCOMPARE(activity.first().toObject().value("kind").toString(), "create");
        QCOMPARE(activity.first().toObject().value("seq").toInt(), 1);

        QFile runner(LIZARD_RUNNER_SCRIPT);
        QVERIFY(runner.open(QIODevice::ReadOnly));
        QCOMPARE(m_api.write(id, "/tmp/runner.py", QString::fromUtf8(runner.readAll())), 204);
        const QByteArray request =
            QJsonDocument(QJsonObject{{"action", "run"},
                                      {"code", "import os\nprint(os.environ['GREETING'], "
                                               "[n for n in dir() if not n.startswith('_')])"}})
                .toJson(QJsonDocument::Compact)
                .toBase64();
        const QString events = m_api.run(id, "python3 /tmp/runner.py " + request);
        QVERIFY2(events.contains(R"(claimed ['In', 'Out', 'exit', 'get_ipython', 'os', 'quit'])"),
                 qPrintable(events));
        QVERIFY2(events.contains(R"("execution_count": 1)"), qPrintable(events));
        QVERIFY2(!events.contains("notice"), qPrintable(events)); // no fresh kernel was started
        QCOMPARE(m_api.run(id, "ls " + ctx + "/claim-envs.json 2>/dev/null; echo end"), "end\n");

        // A claim without envs writes no file.
        QVERIFY(poolHolds("interpreter", 1));
        const QString plain = create({{"template", "interpreter"}}).value("sandboxId").toString();
        QCOMPARE(m_api.run(plain, "ls -A " + ctx),
                 "kernel.json\nkernel.log\nkernel.ns\nkernel.pid\nmeta.json\n");
        m_api.kill(id);
        m_api.kill(plain);
    }

    void aPoolThatCannotFillSaysWhy()
    {
        restartWith({"--pool-max", "6", "--pool-base", "2", "--pool-min-free-mb", "16777216"});
        QVERIFY(waitUntil([&] { return !templatePool("base").value("poolError").isNull(); }, 30000,
                          100));
        QVERIFY2(templatePool("base").value("poolError").toString().contains("--pool-min-free-mb"),
                 qPrintable(toJson(templatePool("base"))));
        QCOMPARE(templatePool("base").value("readyCount").toInt(), 0);
        QCOMPARE(copiesOnDisk(), 0);

        qputenv("LIZARD_TEST_INTERPRETER_MODULES", "lizard_no_such_module");
        restartWith({"--pool-max", "6", "--pool-base", "0", "--pool-interpreter", "1",
                     "--pool-min-free-mb", "0"});
        qunsetenv("LIZARD_TEST_INTERPRETER_MODULES");
        QVERIFY(waitUntil([&] { return !templatePool("interpreter").value("poolError").isNull(); },
                          30000, 100));
        QVERIFY2(templatePool("interpreter")
                     .value("poolError")
                     .toString()
                     .contains("python3-lizard-no-such-module"),
                 qPrintable(toJson(templatePool("interpreter"))));
    }

    void poolsOffByOption()
    {
        restartWith({"--pool-max", "0"});
        QCOMPARE(templatePool("base").value("poolSize").toInt(), 0);
        const QJsonObject made = create({});
        QVERIFY(made.contains("sandboxId"));
        QVERIFY(!made.value("fromPool").toBool());
        QCOMPARE(copiesOnDisk(), 0);
        m_api.kill(made.value("sandboxId").toString());
    }
};

QTEST_GUILESS_MAIN(TestPools)
#include "tst_pools.moc"
