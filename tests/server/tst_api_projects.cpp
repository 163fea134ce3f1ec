// Projects: the default project, create/get/rename/delete, name conflicts, regions and me.
#include "support_http.h"

using lizard::test::jsonArray;
using lizard::test::jsonObject;
using lizard::test::LocalServer;

class TestApiProjects : public QObject
{
    Q_OBJECT

    LocalServer m_server;

    QJsonObject create(const QString& name, int expectStatus = 200)
    {
        const auto r =
            m_server.request("POST", "/api/projects", lizard::test::toJson({{"name", name}}));
        if (r.status != expectStatus)
            qWarning() << lizard::test::describe(r);
        return r.status == expectStatus ? jsonObject(r) : QJsonObject();
    }

private slots:
    void initTestCase() { QVERIFY2(m_server.start(), qPrintable(m_server.errorString())); }

    void defaultProjectExists()
    {
        const auto r = m_server.request("GET", "/api/projects");
        QCOMPARE(r.status, 200);
        const QJsonArray list = jsonArray(r);
        QVERIFY(!list.isEmpty());
        const QJsonObject p = list.first().toObject();
        QCOMPARE(p.value("slug").toString(), QStringLiteral("default"));
        QCOMPARE(p.value("name").toString(), QStringLiteral("default"));
        QVERIFY(p.value("id").isString());
        QCOMPARE(p.value("workspaceId").toString(), QStringLiteral("ws_local"));
        QVERIFY(
            QDateTime::fromString(p.value("createdAt").toString(), Qt::ISODateWithMs).isValid());
    }

    void createGetRenameDelete()
    {
        const QJsonObject p = create("Data Science");
        QVERIFY(!p.isEmpty());
        QCOMPARE(p.value("slug").toString(), QStringLiteral("data-science"));
        const QString id = p.value("id").toString();
        QCOMPARE(
            jsonObject(m_server.request("GET", "/api/projects/" + id)).value("name").toString(),
            QStringLiteral("Data Science"));
        // by slug too
        QCOMPARE(jsonObject(m_server.request("GET", "/api/projects/data-science"))
                     .value("id")
                     .toString(),
                 id);

        const auto renamed = m_server.request("PATCH", "/api/projects/" + id, R"({"name":"ML"})");
        QCOMPARE(renamed.status, 200);
        QCOMPARE(jsonObject(renamed).value("name").toString(), QStringLiteral("ML"));
        QCOMPARE(jsonObject(renamed).value("slug").toString(),
                 QStringLiteral("data-science")); // slugs are stable

        bool listed = false;
        for (const auto& v : jsonArray(m_server.request("GET", "/api/projects")))
            listed = listed || v.toObject().value("id").toString() == id;
        QVERIFY(listed);

        QCOMPARE(m_server.request("DELETE", "/api/projects/" + id).status, 204);
        QVERIFY(lizard::test::isError(m_server.request("GET", "/api/projects/" + id), 404,
                                      "NOT_FOUND"));
        QVERIFY(lizard::test::isError(m_server.request("DELETE", "/api/projects/" + id), 404,
                                      "NOT_FOUND"));
    }

    void nameConflicts_data()
    {
        QTest::addColumn<QString>("first");
        QTest::addColumn<QString>("second");
        QTest::newRow("same name") << "alpha"
                                   << "alpha";
        QTest::newRow("other case") << "Beta"
                                    << "BETA";
        QTest::newRow("equals a slug") << "Gamma Ray"
                                       << "gamma-ray";
    }

    void nameConflicts()
    {
        QFETCH(QString, first);
        QFETCH(QString, second);
        QVERIFY(!create(first).isEmpty());
        const auto r =
            m_server.request("POST", "/api/projects", lizard::test::toJson({{"name", second}}));
        QVERIFY2(lizard::test::isError(r, 409, "CONFLICT"), qPrintable(lizard::test::describe(r)));
    }

    void renameConflict()
    {
        const QString a = create("one").value("id").toString();
        QVERIFY(!create("two").isEmpty());
        const auto r = m_server.request("PATCH", "/api/projects/" + a, R"({"name":"Two"})");
        QVERIFY(lizard::test::isError(r, 409, "CONFLICT"));
        // renaming to its own name is fine
        QCOMPARE(m_server.request("PATCH", "/api/projects/" + a, R"({"name":"one"})").status, 200);
    }

    void badNames_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("empty") << QByteArray(R"({"name":""})");
        QTest::newRow("blank") << QByteArray(R"({"name":"   "})");
        QTest::newRow("control char") << QByteArray(R"({"name":"a\nb"})");
        QTest::newRow("too long") << "{\"name\":\"" + QByteArray(101, 'x') + "\"}";
        QTest::newRow("array") << QByteArray(R"({"name":["x"]})");
        QTest::newRow("foreign workspace")
            << QByteArray(R"({"name":"x","workspaceId":"ws_other"})");
    }

    void badNames()
    {
        QFETCH(QByteArray, body);
        const auto r = m_server.request("POST", "/api/projects", body);
        QVERIFY2(r.status == 400 || r.status == 404, qPrintable(lizard::test::describe(r)));
        QVERIFY(!jsonObject(r).value("code").toString().isEmpty());
    }

    void defaultCannotBeDeleted()
    {
        const QJsonObject p =
            jsonArray(m_server.request("GET", "/api/projects")).first().toObject();
        const auto r = m_server.request("DELETE", "/api/projects/" + p.value("id").toString());
        QVERIFY2(lizard::test::isError(r, 409, "CONFLICT"), qPrintable(lizard::test::describe(r)));
    }

    void projectsSurviveRestart()
    {
        const QString id = create("persistent").value("id").toString();
        QVERIFY(!id.isEmpty());
        QVERIFY2(m_server.restart(), qPrintable(m_server.errorString()));
        QCOMPARE(
            jsonObject(m_server.request("GET", "/api/projects/" + id)).value("name").toString(),
            QStringLiteral("persistent"));
    }

    void emptyProjectSandboxList()
    {
        const QString id = create("empty-one").value("id").toString();
        const auto r = m_server.request("GET", "/api/projects/" + id + "/sandboxes");
        QCOMPARE(r.status, 200);
        QVERIFY(jsonArray(r).isEmpty());
    }

    void regionsAndMe()
    {
        const QJsonArray regions = jsonArray(m_server.request("GET", "/api/regions"));
        QCOMPARE(regions.size(), 1);
        QCOMPARE(regions.first().toObject().value("id").toString(), QStringLiteral("local"));
        const QJsonObject me = jsonObject(m_server.request("GET", "/api/auth/me"));
        QVERIFY(!me.value("username").toString().isEmpty());
        QCOMPARE(me.value("scoped").toBool(true), false);
    }
};

QTEST_GUILESS_MAIN(TestApiProjects)
#include "tst_api_projects.moc"
