// Sandboxes through the API: create (defaults and every field), info, lists, kill,
// timeouts and expiry, the running limit.
#include "support_http.h"

#include <QDateTime>
#include <sched.h>

using lizard::test::createSandbox;
using lizard::test::describe;
using lizard::test::isError;
using lizard::test::jsonArray;
using lizard::test::jsonObject;
using lizard::test::LocalServer;
using lizard::test::toJson;

// CPUs this process may use: the server clamps sizes to them.
static int hostCpus()
{
    cpu_set_t set;
    CPU_ZERO(&set);
    return ::sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
}

class TestApiSandboxes : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    QString m_defaultProject;

    static QDateTime time(const QJsonObject& o, const char* field)
    {
        return QDateTime::fromString(o.value(field).toString(), Qt::ISODateWithMs);
    }

    bool listed(const QString& path, const QString& id)
    {
        for (const auto& v : jsonArray(m_server.request("GET", path))) {
            if (v.toObject().value("sandboxId").toString() == id)
                return true;
        }
        return false;
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        m_defaultProject = jsonArray(m_server.request("GET", "/api/projects"))
                               .first()
                               .toObject()
                               .value("id")
                               .toString();
        const auto probe = m_server.request("POST", "/api/sandboxes", "{}");
        LIZ_REQUIRE_CREATED(probe);
        m_server.request("DELETE",
                         "/api/sandboxes/" + jsonObject(probe).value("sandboxId").toString());
    }

    void createWithDefaults()
    {
        const auto r = m_server.request("POST", "/api/sandboxes", "{}");
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        const QJsonObject info = jsonObject(r);
        const QString id = info.value("sandboxId").toString();
        QVERIFY(id.startsWith("sb_"));
        QCOMPARE(info.value("template").toString(), QStringLiteral("base"));
        QCOMPARE(info.value("projectId").toString(), m_defaultProject);
        QCOMPARE(info.value("status").toString(), QStringLiteral("running"));
        QCOMPARE(info.value("size").toString(), QStringLiteral("medium"));
        QCOMPARE(info.value("region").toString(), QStringLiteral("local"));
        QVERIFY(time(info, "startedAt").isValid());
        QVERIFY(qAbs(time(info, "startedAt").msecsTo(QDateTime::currentDateTimeUtc())) < 60000);
        QVERIFY(info.value("endAt").isNull()); // no timeoutMs: no deadline
        QVERIFY(info.value("internetAccess").isBool());
        QVERIFY(info.value("metadata").toObject().isEmpty());
        if (info.contains("cpus")) { // only when limits are enforced
            // never more CPUs than the host has (a 2-core host gets 2)
            QCOMPARE(info.value("cpus").toDouble(), qMin(4.0, double(hostCpus())));
            QCOMPARE(info.value("memoryMb").toInt(), 8192);
            QCOMPARE(info.value("limits").toObject().value("enforcedBy").toString(),
                     QStringLiteral("cgroup"));
        } else { // without cgroups the kernel's rlimits still bound it
            QCOMPARE(info.value("limits").toObject().value("enforcedBy").toString(),
                     QStringLiteral("rlimit"));
        }
        QCOMPARE(info.value("limits").toObject().value("pids").toInt(), 1024);
        const auto got = m_server.request("GET", "/api/sandboxes/" + id);
        QCOMPARE(got.status, 200);
        QCOMPARE(jsonObject(got), info);
        QCOMPARE(m_server.request("DELETE", "/api/sandboxes/" + id).status, 204);
    }

    // The cloud's name of the code interpreter template is another name of `interpreter`.
    void codeInterpreterV1IsInterpreter()
    {
        const auto r =
            m_server.request("POST", "/api/sandboxes", R"({"template":"code-interpreter-v1"})");
        if (r.status == 503 && jsonObject(r).value("code").toString() == "TEMPLATE_UNAVAILABLE")
            QSKIP(qPrintable("the interpreter template is not installed: " + describe(r)));
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        const QString id = jsonObject(r).value("sandboxId").toString();
        QCOMPARE(jsonObject(r).value("template").toString(), QStringLiteral("interpreter"));
        const auto py =
            m_server.request("POST", "/api/sandboxes/" + id + "/exec",
                             R"j({"cmd":["python3","-c","import numpy; print('ok')"]})j");
        QCOMPARE(jsonObject(py).value("stdout").toString(), QStringLiteral("ok\n"));
        QCOMPARE(m_server.request("DELETE", "/api/sandboxes/" + id).status, 204);
    }

    void createWithEveryField()
    {
        const QString project =
            jsonObject(m_server.request("POST", "/api/projects", R"({"name":"sb-fields"})"))
                .value("id")
                .toString();
        const QJsonObject body{{"template", "base"},
                               {"projectId", project},
                               {"size", "small"},
                               {"timeoutMs", 60000},
                               {"metadata", QJsonObject{{"owner", "tests"}, {"kind", "unit"}}},
                               {"envs", QJsonObject{{"GREETING", "hello from create"}}},
                               {"region", "local"},
                               {"internetAccess", false}};
        const auto r = m_server.request("POST", "/api/sandboxes", toJson(body));
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        const QJsonObject info = jsonObject(r);
        const QString id = info.value("sandboxId").toString();
        QCOMPARE(info.value("projectId").toString(), project);
        QCOMPARE(info.value("size").toString(), QStringLiteral("small"));
        QCOMPARE(info.value("metadata").toObject(), body.value("metadata").toObject());
        QCOMPARE(info.value("internetAccess").toBool(true),
                 false); // never claims network it was asked not to give
        QVERIFY(qAbs(time(info, "startedAt").msecsTo(time(info, "endAt")) - 60000) < 5);
        if (info.contains("cpus")) {
            QCOMPARE(info.value("cpus").toDouble(), qMin(2.0, double(hostCpus())));
            QCOMPARE(info.value("memoryMb").toInt(), 4096);
        }
        // create-time envs reach every command
        const auto ex = m_server.request("POST", "/api/sandboxes/" + id + "/exec",
                                         R"({"cmd":"echo $GREETING"})");
        QCOMPARE(jsonObject(ex).value("stdout").toString(), QStringLiteral("hello from create\n"));

        QVERIFY(listed("/api/sandboxes", id));
        QVERIFY(listed("/api/projects/" + project + "/sandboxes", id));
        QVERIFY(!listed("/api/projects/" + m_defaultProject + "/sandboxes", id));
        // a project with a running sandbox cannot be deleted
        QVERIFY(isError(m_server.request("DELETE", "/api/projects/" + project), 409, "CONFLICT"));
        QCOMPARE(m_server.request("DELETE", "/api/sandboxes/" + id).status, 204);
        QCOMPARE(m_server.request("DELETE", "/api/projects/" + project).status, 204);
    }

    void killIsFinal()
    {
        const QString id = createSandbox(m_server);
        QVERIFY(!id.isEmpty());
        QCOMPARE(m_server.request("DELETE", "/api/sandboxes/" + id).status, 204);
        QVERIFY(isError(m_server.request("GET", "/api/sandboxes/" + id), 404, "NOT_FOUND"));
        QVERIFY(isError(m_server.request("DELETE", "/api/sandboxes/" + id), 404, "NOT_FOUND"));
        QVERIFY(
            isError(m_server.request("POST", "/api/sandboxes/" + id + "/exec", R"({"cmd":"true"})"),
                    404, "NOT_FOUND"));
        QVERIFY(isError(
            m_server.request("POST", "/api/sandboxes/" + id + "/timeout", R"({"timeoutMs":5000})"),
            404, "NOT_FOUND"));
        QVERIFY(!listed("/api/sandboxes", id));
    }

    void setTimeoutRejects_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("zero") << QByteArray(R"({"timeoutMs":0})");
        QTest::newRow("999") << QByteArray(R"({"timeoutMs":999})");
        QTest::newRow("negative") << QByteArray(R"({"timeoutMs":-5})");
        QTest::newRow("2^31") << QByteArray(R"({"timeoutMs":2147483648})");
        QTest::newRow("missing") << QByteArray("{}");
        QTest::newRow("a string") << QByteArray(R"({"timeoutMs":"5000"})");
    }

    void setTimeoutRejects()
    {
        QFETCH(QByteArray, body);
        const QString id = createSandbox(m_server, {{"timeoutMs", 120000}});
        QVERIFY(!id.isEmpty());
        const QString endAt =
            jsonObject(m_server.request("GET", "/api/sandboxes/" + id)).value("endAt").toString();
        const auto r = m_server.request("POST", "/api/sandboxes/" + id + "/timeout", body);
        QVERIFY2(r.status == 400, qPrintable(describe(r)));
        QVERIFY(jsonObject(r).value("message").toString().contains("timeoutMs"));
        QCOMPARE(
            jsonObject(m_server.request("GET", "/api/sandboxes/" + id)).value("endAt").toString(),
            endAt);
        m_server.request("DELETE", "/api/sandboxes/" + id);
    }

    void setTimeoutMovesTheDeadline()
    {
        const QString id = createSandbox(m_server, {{"timeoutMs", 2000}});
        QVERIFY(!id.isEmpty());
        const auto r = m_server.request("POST", "/api/sandboxes/" + id + "/timeout",
                                        R"({"timeoutMs":600000})");
        QCOMPARE(r.status, 204);
        const QDateTime endAt =
            time(jsonObject(m_server.request("GET", "/api/sandboxes/" + id)), "endAt");
        QVERIFY(qAbs(QDateTime::currentDateTimeUtc().msecsTo(endAt) - 600000) < 5000);
        QTest::qWait(3000); // past the old deadline: still alive
        QCOMPARE(m_server.request("GET", "/api/sandboxes/" + id).status, 200);
        // shortening works too
        QCOMPARE(
            m_server.request("POST", "/api/sandboxes/" + id + "/timeout", R"({"timeoutMs":1000})")
                .status,
            204);
        QTRY_COMPARE_WITH_TIMEOUT(m_server.request("GET", "/api/sandboxes/" + id).status, 404,
                                  5000);
    }

    void expiresAtItsDeadline()
    {
        const QString id = createSandbox(m_server, {{"timeoutMs", 1500}});
        QVERIFY(!id.isEmpty());
        QCOMPARE(m_server.request("GET", "/api/sandboxes/" + id).status, 200);
        QElapsedTimer t;
        t.start();
        QTRY_COMPARE_WITH_TIMEOUT(m_server.request("GET", "/api/sandboxes/" + id).status, 404,
                                  5000);
        QVERIFY(t.elapsed() < 3000);
        QVERIFY(!listed("/api/sandboxes", id));
        const QByteArray line = ("sandbox " + id + " destroyed (expired)").toUtf8();
        QByteArray log;
        QTRY_VERIFY_WITH_TIMEOUT((log += m_server.log()).contains(line), 5000);
    }

    void runningLimit()
    {
        LocalServer limited;
        QVERIFY2(limited.start({"--max-running", "1"}), qPrintable(limited.errorString()));
        const QString first = createSandbox(limited);
        QVERIFY(!first.isEmpty());
        const auto r = limited.request("POST", "/api/sandboxes", "{}");
        QVERIFY2(isError(r, 429, "LIMIT_EXCEEDED"), qPrintable(describe(r)));
        QCOMPARE(jsonObject(r).value("limit").toInt(), 1);
        QCOMPARE(jsonObject(r).value("running").toInt(), 1);
        QCOMPARE(jsonObject(r).value("unit").toString(), QStringLiteral("sandboxes"));
        QVERIFY(jsonObject(r).value("retryAfterS").toInt() > 0);
        QCOMPARE(limited.request("DELETE", "/api/sandboxes/" + first).status, 204);
        const QString again = createSandbox(limited);
        QVERIFY(!again.isEmpty());
        limited.request("DELETE", "/api/sandboxes/" + again);
    }

    void cleanupTestCase()
    {
        for (const auto& v : jsonArray(m_server.request("GET", "/api/sandboxes")))
            m_server.request("DELETE",
                             "/api/sandboxes/" + v.toObject().value("sandboxId").toString());
    }
};

QTEST_GUILESS_MAIN(TestApiSandboxes)
#include "tst_api_sandboxes.moc"
