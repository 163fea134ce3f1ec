// API keys through the API: create, list (no secret), use, last use, read-only scope refused
// on anything that changes state, revoke (at once, open exec streams included), the bootstrap
// key, and bad input.
#include "support_http.h"

#include <QElapsedTimer>
#include <QTcpSocket>

using lizard::test::describe;
using lizard::test::isError;
using lizard::test::jsonArray;
using lizard::test::jsonObject;
using lizard::test::LocalServer;
using lizard::test::toJson;

namespace {

const QJsonArray kReadOnly{QJsonObject{{"type", "access"}, {"id", "read-only"}}};

} // namespace

class TestApiKeys : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    QString m_sandbox; // empty on a host without sandboxes

    QJsonObject createKey(const QString& name, const QJsonArray& scopes = {})
    {
        QJsonObject body{{"name", name}};
        if (!scopes.isEmpty())
            body["scopes"] = scopes;
        const auto r = m_server.request("POST", "/api/account/api-keys", toJson(body));
        if (r.status != 200)
            qWarning().noquote() << "create key:" << describe(r);
        return r.status == 200 ? jsonObject(r) : QJsonObject();
    }

    QJsonObject listed(const QString& id)
    {
        for (const auto& v : jsonArray(m_server.request("GET", "/api/account/api-keys"))) {
            if (v.toObject().value("id").toString() == id)
                return v.toObject();
        }
        return {};
    }

    // A raw connection streaming an exec with `key`, so that the test can act while it runs.
    std::unique_ptr<QTcpSocket> openStream(const QByteArray& key, const QByteArray& json)
    {
        auto s = std::make_unique<QTcpSocket>();
        s->connectToHost("127.0.0.1", quint16(m_server.port()));
        if (!s->waitForConnected(5000))
            return nullptr;
        s->write("POST /api/sandboxes/" + m_sandbox.toUtf8() +
                 "/exec HTTP/1.1\r\nHost: x\r\nX-API-Key: " + key +
                 "\r\nAccept: text/event-stream\r\nContent-Type: application/json\r\n"
                 "Content-Length: " +
                 QByteArray::number(json.size()) + "\r\n\r\n" + json);
        return s;
    }

    static bool readUntil(QTcpSocket& s, QByteArray& got, const QByteArray& needle, int ms)
    {
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < ms && !got.contains(needle)) {
            s.waitForReadyRead(50);
            got += s.readAll();
            if (s.state() != QAbstractSocket::ConnectedState)
                got += s.readAll();
        }
        return got.contains(needle);
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        QString why;
        m_sandbox = lizard::test::createSandbox(m_server, {}, &why);
        if (m_sandbox.isEmpty())
            qInfo().noquote() << "no sandbox (exec cases skip):" << why;
    }

    void createAndList()
    {
        const QJsonObject created = createKey("ci deploy");
        const QString key = created.value("key").toString();
        QVERIFY2(key.startsWith("liz_") && key.size() >= 48, qPrintable(key));
        QVERIFY(created.value("id").toString().startsWith("key_"));
        QCOMPARE(created.value("name").toString(), QStringLiteral("ci deploy"));
        QCOMPARE(created.value("scopes").toArray(), QJsonArray());
        QVERIFY(created.value("createdAt").toDouble() > 0);
        QVERIFY(created.value("lastUsedAt").isNull());

        const auto list = m_server.request("GET", "/api/account/api-keys");
        QCOMPARE(list.status, 200);
        QVERIFY2(!list.body.contains(key.toUtf8()), "the list must not carry a full key");
        QVERIFY(!list.body.contains("\"key\""));
        const QJsonObject row = listed(created.value("id").toString());
        QCOMPARE(row.value("name").toString(), QStringLiteral("ci deploy"));
        QVERIFY(row.value("keyPreview").toString().startsWith(key.left(8)));
        QCOMPARE(row.value("bootstrap").toBool(), false);
        // The key file's own key is listed too, marked as such.
        int bootstrap = 0;
        for (const auto& v : jsonArray(list))
            bootstrap += v.toObject().value("bootstrap").toBool();
        QCOMPARE(bootstrap, 1);
    }

    void useUpdatesLastUsed()
    {
        const QJsonObject created = createKey("last use");
        const QByteArray key = created.value("key").toString().toUtf8();
        const double before = QDateTime::currentMSecsSinceEpoch();
        const auto r = m_server.request("GET", "/api/projects", {}, key);
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        const QJsonObject row = listed(created.value("id").toString());
        QVERIFY2(row.value("lastUsedAt").toDouble() >= before - 5, qPrintable(toJson(row)));
        // Who the key is: /api/auth/me answers for the new key.
        QCOMPARE(jsonObject(m_server.request("GET", "/api/auth/me", {}, key)).value("keyId"),
                 created.value("id"));
    }

    void readOnlyRefusesChanges()
    {
        const QJsonObject created = createKey("viewer", kReadOnly);
        const QByteArray key = created.value("key").toString().toUtf8();
        QCOMPARE(created.value("scopes").toArray().at(0).toObject().value("id").toString(),
                 QStringLiteral("read-only"));
        QCOMPARE(m_server.request("GET", "/api/projects", {}, key).status, 200);
        QCOMPARE(m_server.request("GET", "/api/account/api-keys", {}, key).status, 200);

        struct Call
        {
            QByteArray method;
            QString path;
            QByteArray body;
        };
        const QString sb = m_sandbox.isEmpty() ? QStringLiteral("sb_none") : m_sandbox;
        const QList<Call> calls = {
            {"POST", "/api/projects", R"({"name":"nope"})"},
            {"DELETE", "/api/projects/default", {}},
            {"POST", "/api/sandboxes", "{}"},
            {"DELETE", "/api/sandboxes/" + sb, {}},
            {"POST", "/api/sandboxes/" + sb + "/exec", R"({"cmd":"touch /tmp/x"})"},
            {"POST", "/api/sandboxes/" + sb + "/files", R"({"path":"/tmp/x","data":""})"},
            {"POST", "/api/sandboxes/" + sb + "/expose/8000", {}},
            {"POST", "/api/account/api-keys", R"({"name":"escalate"})"},
            {"DELETE", "/api/account/api-keys/" + created.value("id").toString(), {}},
        };
        for (const Call& c : calls) {
            const auto r = m_server.request(c.method, c.path, c.body, key);
            QVERIFY2(isError(r, 403, "INSUFFICIENT_SCOPE"),
                     qPrintable(c.method + " " + c.path + ": " + describe(r)));
            QVERIFY(jsonObject(r).value("message").toString().contains("read-only"));
        }
        // Nothing changed: no project "nope", the sandbox still runs, the key still works.
        QVERIFY(!m_server.request("GET", "/api/projects").body.contains("\"nope\""));
        if (!m_sandbox.isEmpty())
            QCOMPARE(m_server.request("GET", "/api/sandboxes/" + m_sandbox).status, 200);
        QVERIFY(!listed(created.value("id").toString()).isEmpty());
    }

    void readOnlyRefusedBeforeTheBody()
    {
        // The scope is checked with the key, before the body: a huge announced body is never
        // waited for.
        const QByteArray key = createKey("viewer 2", kReadOnly).value("key").toString().toUtf8();
        QTcpSocket s;
        s.connectToHost("127.0.0.1", quint16(m_server.port()));
        QVERIFY(s.waitForConnected(5000));
        s.write("POST /api/projects HTTP/1.1\r\nHost: x\r\nX-API-Key: " + key +
                "\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{");
        QByteArray got;
        QVERIFY2(readUntil(s, got, "INSUFFICIENT_SCOPE", 5000), got.constData());
        QVERIFY(got.startsWith("HTTP/1.1 403"));
    }

    void revokeIsImmediate()
    {
        const QJsonObject created = createKey("short-lived");
        const QByteArray key = created.value("key").toString().toUtf8();
        const QString id = created.value("id").toString();
        QCOMPARE(m_server.request("GET", "/api/projects", {}, key).status, 200);
        const auto del = m_server.request("DELETE", "/api/account/api-keys/" + id);
        QVERIFY2(del.status == 204, qPrintable(describe(del)));
        QVERIFY(isError(m_server.request("GET", "/api/projects", {}, key), 401, "UNAUTHORIZED"));
        QVERIFY(listed(id).isEmpty());
        QVERIFY(
            isError(m_server.request("DELETE", "/api/account/api-keys/" + id), 404, "NOT_FOUND"));
    }

    void revokeEndsOpenStream()
    {
        if (m_sandbox.isEmpty())
            QSKIP("no sandbox on this host");
        const QJsonObject created = createKey("streamer");
        const QByteArray key = created.value("key").toString().toUtf8();
        auto stream = openStream(key, R"({"cmd":"echo started; sleep 60; echo finished"})");
        QVERIFY(stream);
        QByteArray got;
        QVERIFY2(readUntil(*stream, got, "started", 15000), got.constData());
        QElapsedTimer t;
        t.start();
        const auto del =
            m_server.request("DELETE", "/api/account/api-keys/" + created.value("id").toString());
        QCOMPARE(del.status, 204);
        QVERIFY2(readUntil(*stream, got, "KEY_REVOKED", 1000), got.constData());
        QVERIFY2(t.elapsed() < 1000, qPrintable(QString::number(t.elapsed())));
        // Then the stream is cut (not a normal end the SDK would read as exit code 0).
        QElapsedTimer closed;
        closed.start();
        while (stream->state() == QAbstractSocket::ConnectedState && closed.elapsed() < 2000)
            stream->waitForReadyRead(50);
        QCOMPARE(stream->state(), QAbstractSocket::UnconnectedState);
        QVERIFY(!got.contains("finished"));
        QVERIFY(!got.contains("exitCode"));
    }

    void bootstrapKeyStays()
    {
        QString bootstrapId;
        for (const auto& v : jsonArray(m_server.request("GET", "/api/account/api-keys"))) {
            if (v.toObject().value("bootstrap").toBool())
                bootstrapId = v.toObject().value("id").toString();
        }
        QVERIFY(!bootstrapId.isEmpty());
        const auto r = m_server.request("DELETE", "/api/account/api-keys/" + bootstrapId);
        QVERIFY2(isError(r, 403, "KEY_NOT_REVOCABLE"), qPrintable(describe(r)));
        QCOMPARE(m_server.request("GET", "/api/projects").status, 200);
    }

    void badInput_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("no name") << QByteArray("{}") << "INVALID_NAME"
                                 << "name";
        QTest::newRow("empty name") << QByteArray(R"({"name":""})") << "INVALID_NAME"
                                    << "name";
        QTest::newRow("blank name") << QByteArray(R"({"name":"   "})") << "INVALID_NAME"
                                    << "name";
        QTest::newRow("name too long") << toJson({{"name", QString(101, 'k')}}) << "INVALID_NAME"
                                       << "100";
        QTest::newRow("name not a string") << QByteArray(R"({"name":7})") << "INVALID_ARGUMENT"
                                           << "name";
        QTest::newRow("control character") << QByteArray(R"({"name":"a\nb"})") << "INVALID_NAME"
                                           << "control";
        QTest::newRow("unknown scope")
            << QByteArray(R"({"name":"k","scopes":[{"type":"access","id":"admin"}]})")
            << "INVALID_SCOPE"
            << "read-only";
        QTest::newRow("scope not an object")
            << QByteArray(R"({"name":"k","scopes":["read"]})") << "INVALID_SCOPE"
            << "read-only";
        QTest::newRow("scopes not an array")
            << QByteArray(R"({"name":"k","scopes":"read-only"})") << "INVALID_SCOPE"
            << "array";
        QTest::newRow("project scope")
            << QByteArray(R"({"name":"k","scopes":[{"type":"project","id":"proj_1"}]})")
            << "INVALID_SCOPE"
            << "project";
        QTest::newRow("not JSON") << QByteArray("{name") << "INVALID_JSON"
                                  << "JSON";
    }

    void badInput()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, code);
        QFETCH(QString, mentions);
        const int before = jsonArray(m_server.request("GET", "/api/account/api-keys")).size();
        const auto r = m_server.request("POST", "/api/account/api-keys", body);
        QVERIFY2(isError(r, 400, code), qPrintable(describe(r)));
        QVERIFY2(jsonObject(r).value("message").toString().contains(mentions),
                 qPrintable(describe(r)));
        QCOMPARE(jsonArray(m_server.request("GET", "/api/account/api-keys")).size(), before);
    }

    void keysSurviveRestart()
    {
        const QJsonObject created = createKey("durable", kReadOnly);
        const QByteArray key = created.value("key").toString().toUtf8();
        QCOMPARE(m_server.request("GET", "/api/projects", {}, key).status, 200);
        QVERIFY2(m_server.restart(), qPrintable(m_server.errorString()));
        const QJsonObject row = listed(created.value("id").toString());
        QCOMPARE(row.value("name").toString(), QStringLiteral("durable"));
        QVERIFY(row.value("lastUsedAt").toDouble() > 0);
        QCOMPARE(m_server.request("GET", "/api/projects", {}, key).status, 200);
        QVERIFY(isError(m_server.request("POST", "/api/projects", R"({"name":"x"})", key), 403,
                        "INSUFFICIENT_SCOPE"));
    }

    void cleanupTestCase()
    {
        if (!m_sandbox.isEmpty())
            m_server.request("DELETE", "/api/sandboxes/" + m_sandbox);
    }
};

QTEST_GUILESS_MAIN(TestApiKeys)
#include "tst_api_keys.moc"
