// Templates built from recipes on a real lizard-local: a recipe with files, env, run, apt (from
// the Debian mirror) and pip (a wheel made in the build, offline) builds, and its sandboxes
// have what it made; a changed step rebuilds from that step on (timed) and an unchanged recipe
// makes no version; a failing step keeps the previous version and its log says why; the log
// streams while the build runs; malformed recipes and files outside the recipe's folder are
// refused with their line; a template of a template; the warm pool of its latest version;
// delete, and the snapshot calls refusing a template's snapshots.
#include "lifecycle_support.h"

#include <QElapsedTimer>

using lizard::test::describe;
using lizard::test::isError;
using lizard::test::jsonArray;
using lizard::test::jsonObject;
using lizard::test::LocalServer;
using lizard::test::SandboxApi;
using lizard::test::toJson;

namespace {

// A wheel of a one-module package, made inside the build (pip installs it with no index).
const char* kMakeWheel = R"(import zipfile, os
os.makedirs('/tmp/wheels', exist_ok=True)
name = '/tmp/wheels/lizard_hello-1.0-py3-none-any.whl'
with zipfile.ZipFile(name, 'w') as z:
    z.writestr('lizard_hello/__init__.py', 'def greet():\n    return "hello from a wheel"\n')
    z.writestr('lizard_hello-1.0.dist-info/METADATA',
               'Metadata-Version: 2.1\nName: lizard-hello\nVersion: 1.0\n')
    z.writestr('lizard_hello-1.0.dist-info/WHEEL',
               'Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n')
    z.writestr('lizard_hello-1.0.dist-info/RECORD', '')
)";

} // namespace

class TestApiTemplates : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    SandboxApi m_api{m_server};
    QStringList m_templates;

    // POST /api/templates; the build as answered.
    LocalServer::Response post(const QString& name, const QString& recipe,
                               const QJsonObject& files = {})
    {
        QJsonObject body{{"name", name}, {"recipe", recipe}};
        if (!files.isEmpty())
            body.insert("files", files);
        if (!m_templates.contains(name))
            m_templates << name;
        return m_server.request("POST", "/api/templates", toJson(body));
    }
    // Builds and waits for the end: the build as it ended (its log in "log").
    QJsonObject build(const QString& name, const QString& recipe, const QJsonObject& files = {})
    {
        const auto r = post(name, recipe, files);
        if (r.status != 202) {
            qWarning("build: %s", qPrintable(describe(r)));
            return {};
        }
        return waitForEnd(jsonObject(r));
    }
    // Reads the build's log stream to its end.
    QJsonObject waitForEnd(const QJsonObject& started)
    {
        const auto log = m_server.request("GET", started.value("logUrl").toString());
        QJsonObject end;
        QStringList lines;
        for (const QByteArray& event : log.body.split('\n')) {
            if (!event.startsWith("data: "))
                continue;
            const QJsonObject o = QJsonDocument::fromJson(event.mid(6)).object();
            if (o.contains("line"))
                lines << o.value("line").toString();
            else
                end = o;
        }
        end.insert("log", lines.join('\n'));
        return end;
    }
    QString created(const QString& tmpl, QJsonObject* info = nullptr)
    {
        const auto r =
            m_server.request("POST", "/api/sandboxes", toJson(QJsonObject{{"template", tmpl}}));
        if (r.status != 200) {
            qWarning("create: %s", qPrintable(describe(r)));
            return {};
        }
        if (info)
            *info = jsonObject(r);
        return jsonObject(r).value("sandboxId").toString();
    }
    static QByteArray base64(const QByteArray& text) { return text.toBase64(); }

private slots:
    void initTestCase()
    {
        // Warm pools for the templates built here only.
        QVERIFY2(m_server.start({"--pool-max", "2", "--pool-base", "0", "--pool-interpreter", "0",
                                 "--pool-desktop", "0"}),
                 qPrintable(m_server.errorString()));
    }

    void cleanupTestCase()
    {
        for (const QString& name : m_templates)
            m_server.request("DELETE", "/api/templates/" + name);
    }

    void aRecipeBuildsAndItsSandboxesHaveWhatItMade()
    {
        const QString recipe = "# a template with a bit of everything\n"
                               "from: base\n"
                               "files:\n"
                               "  data/hello.txt: /opt/hello.txt\n"
                               "  mkwheel.py: /opt/mkwheel.py\n"
                               "env:\n"
                               "  GREETING: \"hello, world\"\n"
                               "workdir: /opt\n"
                               "run:\n"
                               "  - python3 mkwheel.py\n"
                               "  - |\n"
                               "    echo \"$GREETING\" > greeting.txt\n"
                               "    pwd > where.txt\n"
                               "apt: [figlet]\n"
                               "pip:\n"
                               "  - /tmp/wheels/lizard_hello-1.0-py3-none-any.whl\n";
        const QJsonObject files{{"data/hello.txt", QString(base64("sent with the build\n"))},
                                {"mkwheel.py", QString(base64(kMakeWheel))}};
        const QJsonObject b = build("everything", recipe, files);
        QVERIFY2(b.value("status").toString() == "succeeded",
                 qPrintable(QJsonDocument(b).toJson()));
        QCOMPARE(b.value("version").toInt(), 1);
        QCOMPARE(b.value("steps").toInt(), 5);
        QCOMPARE(b.value("cachedSteps").toInt(), 0);
        const QString log = b.value("log").toString();
        QVERIFY2(log.contains("step 4/5: apt (line 14)") && log.contains("figlet"),
                 qPrintable(log));
        QVERIFY2(log.contains("Successfully installed lizard-hello-1.0"), qPrintable(log));
        QVERIFY2(log.contains("built everything:1"), qPrintable(log));

        QJsonObject info;
        const QString id = created("everything", &info);
        QVERIFY(!id.isEmpty());
        QCOMPARE(info.value("recipeTemplate").toString(), QStringLiteral("everything:1"));
        QCOMPARE(info.value("template").toString(), QStringLiteral("base"));
        QCOMPARE(m_api.run(id, "cat /opt/hello.txt"), QStringLiteral("sent with the build\n"));
        QCOMPARE(m_api.run(id, "cat /opt/greeting.txt /opt/where.txt"),
                 QStringLiteral("hello, world\n/opt\n"));
        QCOMPARE(m_api.run(id, "echo \"$GREETING\""), QStringLiteral("hello, world\n"));
        QCOMPARE(m_api.run(id, "figlet -v >/dev/null && echo figlet"), QStringLiteral("figlet\n"));
        QCOMPARE(m_api.run(id, "python3 -c 'import lizard_hello; print(lizard_hello.greet())'"),
                 QStringLiteral("hello from a wheel\n"));
        m_api.kill(id);

        // The template is listed beside the built-in ones, with its version and recipe.
        const QJsonArray all = jsonArray(m_server.request("GET", "/api/templates"));
        QJsonObject mine;
        for (const QJsonValue& v : all)
            if (v.toObject().value("name").toString() == "everything")
                mine = v.toObject();
        QCOMPARE(mine.value("kind").toString(), QStringLiteral("recipe"));
        QCOMPARE(mine.value("latest").toInt(), 1);
        QCOMPARE(mine.value("base").toString(), QStringLiteral("base"));
        QCOMPARE(mine.value("recipe").toString(), recipe);
        QVERIFY(mine.value("available").toBool());
        const QJsonObject detail = jsonObject(m_server.request("GET", "/api/templates/everything"));
        QCOMPARE(detail.value("layers").toArray().size(), 5);
        QCOMPARE(detail.value("builds").toArray().size(), 1);
        // No build sandbox is left.
        for (const QJsonValue& v : jsonArray(m_server.request("GET", "/api/sandboxes")))
            QVERIFY(!v.toObject().value("metadata").toObject().contains("lizard.templateBuild"));
    }

    void aChangedStepRebuildsFromThere()
    {
        const QString head = "from: base\nrun:\n"
                             "  - sleep 1; echo one > /opt/1\n"
                             "  - sleep 1; echo two > /opt/2\n";
        QElapsedTimer t;
        t.start();
        const QJsonObject first = build("steps", head + "  - echo three > /opt/3\n");
        const qint64 cold = t.restart();
        QCOMPARE(first.value("status").toString(), QStringLiteral("succeeded"));
        QCOMPARE(first.value("version").toInt(), 1);
        const QJsonObject second = build("steps", head + "  - echo THREE > /opt/3\n");
        const qint64 warm = t.restart();
        QCOMPARE(second.value("status").toString(), QStringLiteral("succeeded"));
        QCOMPARE(second.value("cachedSteps").toInt(), 2);
        QCOMPARE(second.value("version").toInt(), 2);
        QVERIFY2(second.value("log").toString().contains("step 2/3: run (line 4): cached"),
                 qPrintable(second.value("log").toString()));
        qInfo("build of 3 steps (two of 1 s): %lld ms; after changing the last: %lld ms", cold,
              warm);
        QVERIFY2(warm < cold, "the rebuild ran the cached steps again");
        const QString id = created("steps");
        QCOMPARE(m_api.run(id, "cat /opt/1 /opt/2 /opt/3"), QStringLiteral("one\ntwo\nTHREE\n"));
        m_api.kill(id);
        // An older version is still there by its number.
        const QString old = created("steps:1");
        QCOMPARE(m_api.run(old, "cat /opt/3"), QStringLiteral("three\n"));
        m_api.kill(old);

        // The same recipe again: every step cached, no new version.
        const QJsonObject same = build("steps", head + "  - echo THREE > /opt/3\n");
        QCOMPARE(same.value("status").toString(), QStringLiteral("succeeded"));
        QCOMPARE(same.value("cachedSteps").toInt(), 3);
        QVERIFY(same.value("version").isNull());
        QVERIFY2(same.value("error").toString().contains("nothing changed"),
                 qPrintable(same.value("error").toString()));
    }

    void stepsOfSeveralKindsInAnyOrder()
    {
        const QJsonObject b = build("ordered",
                                    "from: base\n"
                                    "steps:\n"
                                    "  - run: echo first > /opt/order\n"
                                    "  - env:\n"
                                    "      WORD: second\n"
                                    "  - files:\n"
                                    "      x.txt: /opt/x.txt\n"
                                    "  - run: |\n"
                                    "      echo \"$WORD\" >> /opt/order\n"
                                    "      cat /opt/x.txt >> /opt/order\n"
                                    "  - run: echo last >> /opt/order\n",
                                    QJsonObject{{"x.txt", QString(base64("third\n"))}});
        QCOMPARE(b.value("status").toString(), QStringLiteral("succeeded"));
        QCOMPARE(b.value("steps").toInt(), 4);
        QVERIFY2(b.value("log").toString().contains("step 3/4: run (line 8)"),
                 qPrintable(b.value("log").toString()));
        const QString id = created("ordered");
        QCOMPARE(m_api.run(id, "cat /opt/order"), QStringLiteral("first\nsecond\nthird\nlast\n"));
        m_api.kill(id);
        const auto wrong = post("ordered", "from: base\nsteps:\n  - from: base\n");
        QVERIFY(isError(wrong, 400, "INVALID_RECIPE"));
        QVERIFY2(jsonObject(wrong).value("message").toString().startsWith("line 3:"),
                 qPrintable(describe(wrong)));
        QVERIFY(isError(post("ordered", "from: base\nrun:\n  - echo: x\n"), 400, "INVALID_RECIPE"));
    }

    void aFailingStepKeepsThePreviousVersion()
    {
        const QJsonObject ok = build("failing", "from: base\nrun: echo good > /opt/state\n");
        QCOMPARE(ok.value("version").toInt(), 1);
        const QJsonObject bad = build("failing", "from: base\nrun:\n"
                                                 "  - echo better > /opt/state\n"
                                                 "  - echo 'no such thing' >&2; exit 3\n");
        QCOMPARE(bad.value("status").toString(), QStringLiteral("failed"));
        QCOMPARE(bad.value("failedStep").toInt(), 1);
        QCOMPARE(bad.value("exitCode").toInt(), 3);
        QVERIFY(bad.value("version").isNull());
        QVERIFY2(bad.value("error").toString().contains("run (line 4) failed with exit code 3"),
                 qPrintable(bad.value("error").toString()));
        const QString log = bad.value("log").toString();
        QVERIFY2(log.contains("no such thing") && log.contains("versions are as they were"),
                 qPrintable(log));
        const QJsonObject t = jsonObject(m_server.request("GET", "/api/templates/failing"));
        QCOMPARE(t.value("latest").toInt(), 1);
        QCOMPARE(t.value("lastBuild").toObject().value("status").toString(),
                 QStringLiteral("failed"));
        const QString id = created("failing");
        QCOMPARE(m_api.run(id, "cat /opt/state"), QStringLiteral("good\n"));
        m_api.kill(id);
        // The failed build's log is kept and read again after its end.
        const auto again = m_server.request("GET", "/api/templates/failing/builds/" +
                                                       bad.value("id").toString() + "/log");
        QVERIFY(again.body.contains("no such thing"));
        QVERIFY(again.body.contains("event: end"));
    }

    void theLogStreamsWhileTheBuildRuns()
    {
        const auto r = post("live", "from: base\nrun: for i in 1 2 3; do echo line$i; sleep 0.5; "
                                    "done\n");
        QCOMPARE(r.status, 202);
        const QJsonObject started = jsonObject(r);
        QCOMPARE(started.value("status").toString(), QStringLiteral("building"));
        // While it runs: a second build of the same template is refused.
        QVERIFY(isError(post("live", "from: base\nrun: true\n"), 409, "BUILD_RUNNING"));
        const QJsonObject during = jsonObject(m_server.request(
            "GET", "/api/templates/live/builds/" + started.value("id").toString()));
        QCOMPARE(during.value("status").toString(), QStringLiteral("building"));
        const QJsonObject end = waitForEnd(started);
        QCOMPARE(end.value("status").toString(), QStringLiteral("succeeded"));
        QVERIFY2(end.value("log").toString().contains("line1\nline2\nline3"),
                 qPrintable(end.value("log").toString()));
    }

    void malformedRecipesAreRefusedWithTheirLine()
    {
        const QList<QPair<QString, QString>> cases = {
            {"run: true\n", "no \"from:\""},
            {"from: base\nfrom: base\n", "line 2"},
            {"from: base\nbogus: 1\n", "line 2: unknown key"},
            {"from: base\nrun:\n\t- true\n", "line 3: indent with spaces"},
            {"from: base\napt: [figlet\n", "line 2: a list ([) is not closed"},
            {"from: base\napt: [--allow-unauthenticated]\n", "line 2"},
            {"from: base\nenv:\n  1BAD: x\n", "line 3"},
            {"from: base\nrun: \"unterminated\n", "line 2"},
            {"from: Base Image\n", "line 1"},
            {"from: base\nworkdir: relative\n", "line 2"},
        };
        for (const auto& [recipe, expected] : cases) {
            const auto r = post("malformed", recipe);
            QVERIFY2(isError(r, 400, "INVALID_RECIPE"), qPrintable(recipe + " → " + describe(r)));
            QVERIFY2(jsonObject(r).value("message").toString().contains(expected),
                     qPrintable(recipe + " → " + describe(r)));
        }
        const auto big = post("malformed", "from: base\n# " + QString(70 * 1024, 'x') + "\n");
        QVERIFY2(isError(big, 400, "INVALID_RECIPE"), qPrintable(describe(big)));
        QVERIFY(isError(post("Bad_Name", "from: base\n"), 400, "INVALID_ARGUMENT"));
        QVERIFY(isError(post("interpreter", "from: base\n"), 409, "TEMPLATE_EXISTS"));
        const auto unknown = post("orphan", "from: base\n\nfrom-nothing: x\n");
        QVERIFY(isError(unknown, 400, "INVALID_RECIPE"));
        const auto noParent = post("orphan", "from: no-such-template\n");
        QVERIFY2(isError(noParent, 404, "NOT_FOUND"), qPrintable(describe(noParent)));
        QVERIFY(jsonObject(noParent).value("message").toString().contains("line 1"));
        // Nothing of them was kept.
        QCOMPARE(m_server.request("GET", "/api/templates/malformed").status, 404);
    }

    void aRecipeIsCheckedWithoutABuild()
    {
        const auto ok = m_server.request(
            "POST", "/api/templates/check",
            toJson(QJsonObject{{"recipe", "from: base\nfiles:\n  a.txt: /opt/a\napt: [jq]\n"
                                          "run: [echo 1, echo 2]\n"}}));
        QCOMPARE(ok.status, 200);
        const QJsonArray steps = jsonObject(ok).value("steps").toArray();
        QCOMPARE(steps.size(), 4);
        QCOMPARE(steps.at(1).toObject().value("label").toString(), QStringLiteral("apt (line 4)"));
        QCOMPARE(jsonObject(ok).value("files").toArray().first().toObject().value("source"),
                 QJsonValue("a.txt"));
        const auto bad = m_server.request("POST", "/api/templates/check",
                                          toJson(QJsonObject{{"recipe", "from: base\nrun: [\n"}}));
        QVERIFY(isError(bad, 400, "INVALID_RECIPE"));
        QVERIFY(jsonObject(bad).value("message").toString().startsWith("line 2:"));
        QVERIFY(isError(m_server.request("POST", "/api/templates/check",
                                         toJson(QJsonObject{{"recipe", "from: nope\n"}})),
                        404, "NOT_FOUND"));
        QCOMPARE(m_server.request("GET", "/api/templates/check").status, 404); // nothing built
    }

    void filesOutsideTheRecipesFolderAreRefused()
    {
        const QJsonObject sent{{"../secret", QString(base64("x"))}};
        const auto shadow = post("files", "from: base\nfiles:\n  /etc/shadow: /opt/shadow\n");
        QVERIFY2(isError(shadow, 400, "INVALID_RECIPE"), qPrintable(describe(shadow)));
        QVERIFY(jsonObject(shadow).value("message").toString().contains("line 3"));
        const auto up = post("files", "from: base\nfiles:\n  ../secret: /opt/s\n", sent);
        QVERIFY2(isError(up, 400, "INVALID_RECIPE"), qPrintable(describe(up)));
        const auto home = post("files", "from: base\nfiles:\n  ~/.ssh/id_rsa: /opt/k\n");
        QVERIFY(isError(home, 400, "INVALID_RECIPE"));
        const auto missing = post("files", "from: base\nfiles:\n  notes.txt: /opt/notes.txt\n");
        QVERIFY2(isError(missing, 400, "INVALID_RECIPE"), qPrintable(describe(missing)));
        QVERIFY(jsonObject(missing).value("message").toString().contains("was not sent"));
        const auto notBase64 = post("files", "from: base\nfiles:\n  a.txt: /opt/a\n",
                                    QJsonObject{{"a.txt", "not base64!"}});
        QVERIFY(isError(notBase64, 400, "INVALID_ARGUMENT"));
        // Control: a file inside the folder is copied.
        const QJsonObject ok = build("files", "from: base\nfiles:\n  sub/a.txt: /opt/a.txt\n",
                                     QJsonObject{{"sub/a.txt", QString(base64("inside\n"))}});
        QCOMPARE(ok.value("status").toString(), QStringLiteral("succeeded"));
        const QString id = created("files");
        QCOMPARE(m_api.run(id, "cat /opt/a.txt"), QStringLiteral("inside\n"));
        m_api.kill(id);
    }

    void aTemplateOfATemplateHasBoth()
    {
        QCOMPARE(build("parent", "from: base\nenv:\n  FROM_PARENT: p\nrun: echo p > /opt/p\n")
                     .value("status")
                     .toString(),
                 QStringLiteral("succeeded"));
        const QJsonObject child =
            build("child", "from: parent\nenv:\n  FROM_CHILD: c\nrun: echo c > /opt/c\n");
        QCOMPARE(child.value("status").toString(), QStringLiteral("succeeded"));
        const QString id = created("child");
        QCOMPARE(m_api.run(id, "cat /opt/p /opt/c; echo $FROM_PARENT$FROM_CHILD"),
                 QStringLiteral("p\nc\npc\n"));
        m_api.kill(id);
    }

    void itsLatestVersionHasAWarmPool()
    {
        // The pools share one cap (--pool-max 2): the templates built before give theirs up.
        for (const QString& name : m_templates)
            m_server.request("PATCH", "/api/templates/" + name,
                             toJson(QJsonObject{{"poolSize", 0}}));
        QCOMPARE(build("pooled", "from: base\nrun: echo warm > /opt/w\n").value("version").toInt(),
                 1);
        QTRY_COMPARE_WITH_TIMEOUT(jsonObject(m_server.request("GET", "/api/templates/pooled"))
                                      .value("readyCount")
                                      .toInt(),
                                  1, 30000);
        QJsonObject info;
        const QString id = created("pooled", &info);
        QVERIFY(info.value("fromPool").toBool());
        QCOMPARE(m_api.run(id, "cat /opt/w"), QStringLiteral("warm\n"));
        m_api.kill(id);
        // Its size is a setting, as a built-in template's.
        const auto patched = m_server.request("PATCH", "/api/templates/pooled",
                                              toJson(QJsonObject{{"poolSize", 0}}));
        QCOMPARE(patched.status, 200);
        QCOMPARE(jsonObject(patched).value("poolSize").toInt(), 0);
    }

    void aServerStoppedDuringABuildEndsIt()
    {
        const auto r = post("restarted", "from: base\nrun: echo started; sleep 60\n");
        QCOMPARE(r.status, 202);
        const QString id = jsonObject(r).value("id").toString();
        QTRY_VERIFY_WITH_TIMEOUT( // its sandbox runs the step
            [&] {
                for (const QJsonValue& v : jsonArray(m_server.request("GET", "/api/sandboxes")))
                    if (v.toObject().value("metadata").toObject().contains("lizard.templateBuild"))
                        return true;
                return false;
            }(),
            30000);
        QVERIFY(m_server.restart());
        const QJsonObject b =
            jsonObject(m_server.request("GET", "/api/templates/restarted/builds/" + id));
        QCOMPARE(b.value("status").toString(), QStringLiteral("interrupted"));
        QVERIFY2(b.value("error").toString().contains("stopped during the build"),
                 qPrintable(b.value("error").toString()));
        // Its sandbox ends with it, and the next build runs.
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (const QJsonValue& v : jsonArray(m_server.request("GET", "/api/sandboxes")))
                    if (v.toObject().value("metadata").toObject().contains("lizard.templateBuild"))
                        return false;
                return true;
            }(),
            30000);
        QCOMPARE(build("restarted", "from: base\nrun: echo again\n").value("status").toString(),
                 QStringLiteral("succeeded"));
    }

    // With a cache of 1 MiB, a build's layers of 2 MiB each go once it ended, the least
    // recently used first, but never the one the version stands on; the next build then runs
    // every step again.
    void theLayerCacheIsBounded()
    {
        LocalServer small;
        QVERIFY2(small.start({"--template-cache-mb", "1"}), qPrintable(small.errorString()));
        const auto build = [&small](const QString& last) {
            const QString recipe = "from: base\nrun:\n"
                                   "  - head -c 2000000 /dev/urandom > /opt/a\n"
                                   "  - head -c 2000000 /dev/urandom > /opt/b\n"
                                   "  - echo " +
                                   last + " > /opt/last\n";
            const auto r =
                small.request("POST", "/api/templates",
                              toJson(QJsonObject{{"name", "cached"}, {"recipe", recipe}}));
            const QString logUrl = jsonObject(r).value("logUrl").toString();
            const auto log = small.request("GET", logUrl);
            const int at = log.body.lastIndexOf("event: end\ndata: ");
            return QJsonDocument::fromJson(log.body.mid(at + 17).split('\n').first()).object();
        };
        QCOMPARE(build("one").value("status").toString(), QStringLiteral("succeeded"));
        QTRY_COMPARE_WITH_TIMEOUT(jsonObject(small.request("GET", "/api/templates/cached"))
                                      .value("layers")
                                      .toArray()
                                      .size(),
                                  1, 30000);
        const QJsonObject again = build("two");
        QCOMPARE(again.value("status").toString(), QStringLiteral("succeeded"));
        QCOMPARE(again.value("cachedSteps").toInt(), 0);
        // The first version still starts: its layer stayed.
        const auto v1 =
            small.request("POST", "/api/sandboxes", toJson(QJsonObject{{"template", "cached:1"}}));
        QCOMPARE(v1.status, 200);
        const QString id = jsonObject(v1).value("sandboxId").toString();
        QCOMPARE(SandboxApi(small).run(id, "cat /opt/last"), QStringLiteral("one\n"));
        SandboxApi(small).kill(id);
        small.request("DELETE", "/api/templates/cached");
        small.stop();
    }

    void deleteTakesItsSnapshotsAlong()
    {
        const QJsonObject b = build("doomed", "from: base\nrun: echo x > /opt/x\n");
        QCOMPARE(b.value("status").toString(), QStringLiteral("succeeded"));
        const QJsonObject t = jsonObject(m_server.request("GET", "/api/templates/doomed"));
        const QString snap =
            t.value("versions").toArray().first().toObject().value("snapshotId").toString();
        QVERIFY(!snap.isEmpty());
        // The snapshot calls see it, and may not delete it from under the template.
        QCOMPARE(m_server.request("GET", "/api/sandbox-snapshots/" + snap).status, 200);
        QVERIFY(isError(m_server.request("DELETE", "/api/sandbox-snapshots/" + snap), 409,
                        "TEMPLATE_SNAPSHOT"));
        QCOMPARE(m_server.request("DELETE", "/api/templates/doomed").status, 204);
        QCOMPARE(m_server.request("GET", "/api/templates/doomed").status, 404);
        QCOMPARE(m_server.request("GET", "/api/sandbox-snapshots/" + snap).status, 404);
        QVERIFY(isError(
            m_server.request("POST", "/api/sandboxes", toJson(QJsonObject{{"template", "doomed"}})),
            400, "INVALID_TEMPLATE"));
        QVERIFY(
            isError(m_server.request("DELETE", "/api/templates/base"), 409, "TEMPLATE_BUILT_IN"));
        QCOMPARE(m_server.request("DELETE", "/api/templates/never-was").status, 404);
    }
};

QTEST_GUILESS_MAIN(TestApiTemplates)
#include "tst_api_templates.moc"
