// The activity log (GET /api/sandboxes/{id}/activity, a lizard-local extension) on a real
// lizard-local: exec, runCode (through the runner invocation an exec carries), file writes,
// moves and deletes and lifecycle entries arrive in order with their content; env values,
// API keys and exposure tokens never appear; the log survives a restart; a small bound drops
// the oldest entries with a marker; --no-activity answers 501.
#include "activity_support.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>

using lizard::test::ActivityFollower;
using lizard::test::describe;
using lizard::test::isError;
using lizard::test::jsonObject;
using lizard::test::kinds;
using lizard::test::LocalServer;
using lizard::test::runnerExec;
using lizard::test::toJson;

class TestApiActivity : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    QString m_id;
    QString m_token; // the exposure token, when the host could expose

    LocalServer::Response get(const QString& path)
    {
        return m_server.request("GET", "/api/sandboxes/" + m_id + path);
    }
    LocalServer::Response post(const QString& path, const QByteArray& body)
    {
        return m_server.request("POST", "/api/sandboxes/" + m_id + path, body);
    }

    QByteArray logFile(const LocalServer& server, const QString& id)
    {
        QFile f(server.dataDir() + "/sandboxes/" + id + "/activity.jsonl");
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        const auto r = m_server.request(
            "POST", "/api/sandboxes",
            toJson({{"envs", QJsonObject{{"SANDBOX_SECRET", "sandbox-env-value-7f3a"}}}}));
        LIZ_REQUIRE_CREATED(r);
        m_id = jsonObject(r).value("sandboxId").toString();
    }

    void sessionArrivesInOrder()
    {
        ActivityFollower follow;
        QVERIFY(follow.open(m_server, m_id));
        QCOMPARE(follow.waitFor(1).size(), 1); // the create entry from before we followed
        QElapsedTimer clock;

        clock.start();
        auto r =
            post("/exec", toJson({{"cmd", "echo out-line; echo err-line >&2; exit 3"},
                                  {"workdir", "/tmp"},
                                  {"envs", QJsonObject{{"EXEC_SECRET", "exec-env-value-91c"}}}}));
        QCOMPARE(r.status, 200);
        auto got = follow.waitFor(2);
        QVERIFY2(clock.elapsed() < 5000, "the exec entry came late");
        QCOMPARE(got.size(), 2);
        const QJsonObject exec = got[1];
        QCOMPARE(exec.value("kind").toString(), QStringLiteral("exec"));
        QCOMPARE(exec.value("command").toString(),
                 QStringLiteral("echo out-line; echo err-line >&2; exit 3"));
        QCOMPARE(exec.value("cwd").toString(), QStringLiteral("/tmp"));
        QCOMPARE(exec.value("user").toString(), QStringLiteral("root"));
        QCOMPARE(exec.value("envNames").toArray(), QJsonArray{"EXEC_SECRET"});
        QCOMPARE(exec.value("exitCode").toInt(), 3);
        QCOMPARE(exec.value("stdoutHead").toString(), QStringLiteral("out-line\n"));
        QCOMPARE(exec.value("stderrHead").toString(), QStringLiteral("err-line\n"));
        QCOMPARE(exec.value("stdoutBytes").toInt(), 9);
        QVERIFY(exec.contains("start") && exec.contains("end") && exec.contains("durationMs"));
        QVERIFY(exec.value("seq").toInteger() > got[0].value("seq").toInteger());

        // A long output keeps its first and last 64 KiB.
        r = post("/exec",
                 toJson({{"cmd", "head -c 300000 /dev/zero | tr '\\0' a; echo; echo the-end"}}));
        QCOMPARE(r.status, 200);
        got = follow.waitFor(3);
        QCOMPARE(got.size(), 3);
        QCOMPARE(got[2].value("stdoutBytes").toInt(), 300009);
        QCOMPARE(got[2].value("stdoutHead").toString().size(), 65536);
        QVERIFY(got[2].value("stdoutTail").toString().endsWith("a\nthe-end\n"));
        QCOMPARE(got[2].value("stdoutTail").toString().size(), 65536);

        // runCode: the runner invocation is decoded, its per-run env values are not kept.
        const QByteArray run =
            runnerExec({{"action", "run"},
                        {"language", "python"},
                        {"code", "x = 41\nprint(x + 1)"},
                        {"envs", QJsonObject{{"RUN_SECRET", "run-env-value-5d2"}}}});
        QVERIFY(!run.isEmpty());
        r = post("/exec", run);
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        got = follow.waitFor(4);
        QCOMPARE(got.size(), 4);
        const QJsonObject rc = got[3];
        QCOMPARE(rc.value("kind").toString(), QStringLiteral("runCode"));
        QCOMPARE(rc.value("language").toString(), QStringLiteral("python"));
        QCOMPARE(rc.value("code").toString(), QStringLiteral("x = 41\nprint(x + 1)"));
        QCOMPARE(rc.value("envNames").toArray(), QJsonArray{"RUN_SECRET"});
        QCOMPARE(rc.value("exitCode").toInt(), 0);
        const QJsonArray events = rc.value("events").toArray();
        QVERIFY2(!events.isEmpty(), qPrintable(QJsonDocument(rc).toJson()));
        QCOMPARE(events.first().toObject().value("type").toString(), QStringLiteral("stdout"));
        QCOMPARE(events.first().toObject().value("data").toString(), QStringLiteral("42\n"));
        QCOMPARE(events.last().toObject().value("type").toString(), QStringLiteral("done"));
        QVERIFY(!rc.contains("stdoutHead")); // the events are the output

        // Files: path and size, never the content.
        QCOMPARE(post("/files", toJson({{"path", "/tmp/a.txt"}, {"content", "file-content-8e1"}}))
                     .status,
                 204);
        QCOMPARE(post("/files/move", toJson({{"from", "/tmp/a.txt"}, {"to", "/tmp/b.txt"}})).status,
                 204);
        QCOMPARE(
            m_server.request("DELETE", "/api/sandboxes/" + m_id + "/files?path=/tmp/b.txt").status,
            204);
        got = follow.waitFor(7);
        QCOMPARE(kinds(got).mid(4), (QStringList{"fileWrite", "fileMove", "fileDelete"}));
        QCOMPARE(got[4].value("path").toString(), QStringLiteral("/tmp/a.txt"));
        QCOMPARE(got[4].value("size").toInt(), 16);
        QCOMPARE(got[5].value("to").toString(), QStringLiteral("/tmp/b.txt"));
        QCOMPARE(got[6].value("path").toString(), QStringLiteral("/tmp/b.txt"));

        // Lifecycle.
        QCOMPARE(post("/timeout", toJson({{"timeoutMs", 600000}})).status, 204);
        QStringList expected{"timeout"};
        const auto exposed = post("/expose/8000", {});
        if (exposed.status == 200) {
            m_token = jsonObject(exposed).value("accessToken").toString();
            QCOMPARE(m_server.request("DELETE", "/api/sandboxes/" + m_id + "/expose/8000").status,
                     204);
            expected << "expose"
                     << "unexpose";
        } else {
            qWarning() << "no expose on this host:" << describe(exposed);
        }
        QCOMPARE(post("/pause", {}).status, 204);
        QCOMPARE(post("/resume", {}).status, 204);
        expected << "pause"
                 << "resume";
        clock.restart();
        got = follow.waitFor(7 + int(expected.size()));
        QCOMPARE(kinds(got).mid(7), expected);
        QVERIFY2(clock.elapsed() < 500, "lifecycle entries came late");
        QCOMPARE(got.last().value("kind").toString(), QStringLiteral("resume"));
        QCOMPARE(got[7].value("timeoutMs").toInt(), 600000);
        for (int i = 1; i < got.size(); ++i)
            QCOMPARE(got[i].value("seq").toInteger(), got[i - 1].value("seq").toInteger() + 1);
    }

    void jsonPagesAndNoSecrets()
    {
        auto r = get("/activity?since=0&limit=3");
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        QVERIFY(r.contentType.startsWith("application/json"));
        QJsonObject page = jsonObject(r);
        QCOMPARE(page.value("entries").toArray().size(), 3);
        QCOMPARE(page.value("more").toBool(), true);
        QCOMPARE(page.value("entries").toArray().first().toObject().value("kind").toString(),
                 QStringLiteral("create"));
        QCOMPARE(page.value("entries").toArray().first().toObject().value("envNames").toArray(),
                 QJsonArray{"SANDBOX_SECRET"});
        const qint64 last = page.value("lastSeq").toInteger();
        r = get("/activity?since=" + QString::number(last));
        page = jsonObject(r);
        QVERIFY(page.value("entries").toArray().size() >= 7);
        QCOMPARE(page.value("entries").toArray().first().toObject().value("seq").toInteger(),
                 last + 1);
        QCOMPARE(page.value("more").toBool(), false);

        const QByteArray all = get("/activity?limit=10000").body;
        const QByteArray file = logFile(m_server, m_id);
        QVERIFY(file.contains("\"kind\":\"resume\""));
        QList<QByteArray> secrets{"sandbox-env-value-7f3a", "exec-env-value-91c",
                                  "run-env-value-5d2", "file-content-8e1",
                                  m_server.apiKey().toUtf8()};
        if (!m_token.isEmpty())
            secrets << m_token.toUtf8();
        for (const QByteArray& s : secrets) {
            QVERIFY2(!all.contains(s), s.constData());
            QVERIFY2(!file.contains(s), s.constData());
        }

        QVERIFY(isError(get("/activity?limit=0"), 400, "INVALID_ARGUMENT"));
        QVERIFY(isError(get("/activity?since=x"), 400, "INVALID_ARGUMENT"));
        QVERIFY(isError(m_server.request("GET", "/api/sandboxes/nope/activity"), 404, "NOT_FOUND"));
    }

    // A client's own background command (the app's port scan): marked, with byte counts but
    // no output, so polling neither fills the log nor reads as the agent's work.
    void housekeepingIsMarkedAndKeepsNoOutput()
    {
        const auto r = m_server.request("POST", "/api/sandboxes/" + m_id + "/exec",
                                        toJson({{"cmd", "echo scan-output-6b1"}}), "<default>",
                                        {"X-Lizard-Housekeeping: 1"});
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        QJsonObject entry;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                const auto entries =
                    jsonObject(get("/activity?limit=10000")).value("entries").toArray();
                for (const auto& v : entries)
                    if (v.toObject().value("command").toString() == "echo scan-output-6b1")
                        entry = v.toObject();
                return !entry.isEmpty();
            }(),
            5000);
        QVERIFY(entry.value("housekeeping").toBool());
        QCOMPARE(entry.value("exitCode").toInt(), 0);
        QCOMPARE(entry.value("stdoutBytes").toInt(), 16); // counted, not kept
        QVERIFY(!entry.contains("stdoutHead") && !entry.contains("stdoutTail"));
        QVERIFY(!entry.contains("stderrHead"));
    }

    void survivesRestart()
    {
        const QJsonArray before =
            jsonObject(get("/activity?limit=10000")).value("entries").toArray();
        QVERIFY(before.size() >= 10);
        QVERIFY2(m_server.restart(), qPrintable(m_server.errorString()));
        const QJsonArray after =
            jsonObject(get("/activity?limit=10000")).value("entries").toArray();
        QCOMPARE(after, before);
        QCOMPARE(post("/exec", toJson({{"cmd", "true"}})).status, 200);
        QTRY_COMPARE(jsonObject(get("/activity?limit=10000")).value("entries").toArray().size(),
                     before.size() + 1);
        const QJsonArray more = jsonObject(get("/activity?limit=10000")).value("entries").toArray();
        QCOMPARE(more.last().toObject().value("seq").toInteger(),
                 before.last().toObject().value("seq").toInteger() + 1);
    }

    void killEndsTheStream()
    {
        ActivityFollower follow;
        const qint64 last = jsonObject(get("/activity?limit=10000")).value("lastSeq").toInteger();
        QVERIFY(follow.open(m_server, m_id, quint64(last)));
        QCOMPARE(m_server.request("DELETE", "/api/sandboxes/" + m_id).status, 204);
        const auto got = follow.waitFor(1);
        QCOMPARE(got.size(), 1);
        QCOMPARE(got[0].value("kind").toString(), QStringLiteral("kill"));
        QCOMPARE(got[0].value("reason").toString(), QStringLiteral("killed"));
        QVERIFY(follow.closedByServer());
        QVERIFY(isError(get("/activity"), 404, "NOT_FOUND"));
        QTRY_VERIFY(!QDir(m_server.dataDir() + "/sandboxes/" + m_id).exists());
    }

    void boundDropsTheOldest()
    {
        LocalServer small;
        QVERIFY2(small.start({"--activity-max-kib", "16"}), qPrintable(small.errorString()));
        QString why;
        const QString id = lizard::test::createSandbox(small, {}, &why);
        QVERIFY2(!id.isEmpty(), qPrintable(why));
        // Each entry is about 1.3 KiB: 40 of them are three times the bound.
        for (int i = 0; i < 40; ++i) {
            const auto r = small.request(
                "POST", "/api/sandboxes/" + id + "/exec",
                toJson({{"cmd", QStringLiteral("printf 'n%1 '; head -c 1000 /dev/zero | tr '\\0' x")
                                    .arg(i)}}));
            QCOMPARE(r.status, 200);
        }
        QTRY_VERIFY(small.request("GET", "/api/sandboxes/" + id + "/activity?limit=10000")
                        .body.contains("n39 "));
        const QJsonArray entries =
            jsonObject(small.request("GET", "/api/sandboxes/" + id + "/activity?limit=10000"))
                .value("entries")
                .toArray();
        const QJsonObject marker = entries.first().toObject();
        QCOMPARE(marker.value("kind").toString(), QStringLiteral("dropped"));
        const qint64 dropped = marker.value("count").toInteger();
        QVERIFY(dropped > 20);
        // Nothing lost silently: the marker covers every seq before the first entry kept.
        QCOMPARE(marker.value("throughSeq").toInteger(), dropped);
        QCOMPARE(entries.at(1).toObject().value("seq").toInteger(), dropped + 1);
        QCOMPARE(entries.last().toObject().value("seq").toInteger(), 41);
        QVERIFY(logFile(small, id).size() <= 16 * 1024);
        small.request("DELETE", "/api/sandboxes/" + id);
    }

    void offWhenAskedTo()
    {
        LocalServer off;
        QVERIFY2(off.start({"--no-activity"}), qPrintable(off.errorString()));
        QString why;
        const QString id = lizard::test::createSandbox(off, {}, &why);
        QVERIFY2(!id.isEmpty(), qPrintable(why));
        QCOMPARE(
            off.request("POST", "/api/sandboxes/" + id + "/exec", toJson({{"cmd", "true"}})).status,
            200);
        QVERIFY(isError(off.request("GET", "/api/sandboxes/" + id + "/activity"), 501,
                        "ACTIVITY_DISABLED"));
        QVERIFY(!QFile::exists(off.dataDir() + "/sandboxes/" + id + "/activity.jsonl"));
        off.request("DELETE", "/api/sandboxes/" + id);
    }
};

QTEST_GUILESS_MAIN(TestApiActivity)
#include "tst_api_activity.moc"
