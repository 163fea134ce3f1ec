// Files inside a sandbox through the API: write (text, base64), read (raw bytes), list,
// stat, move, remove, and the errors.
#include "support_http.h"

#include <QUrl>

using lizard::test::describe;
using lizard::test::isError;
using lizard::test::jsonArray;
using lizard::test::jsonObject;
using lizard::test::LocalServer;
using lizard::test::toJson;

class TestApiFiles : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    QString m_id;

    QString base() const { return "/api/sandboxes/" + m_id; }
    static QString q(const QString& path)
    {
        return QString::fromUtf8(QUrl::toPercentEncoding(path));
    }

    LocalServer::Response write(const QString& path, const QByteArray& content, bool binary)
    {
        QJsonObject body{{"path", path}};
        if (binary) {
            body["content"] = QString::fromLatin1(content.toBase64());
            body["encoding"] = "base64";
        } else {
            body["content"] = QString::fromUtf8(content);
        }
        return m_server.request("POST", base() + "/files", toJson(body));
    }

    LocalServer::Response read(const QString& path)
    {
        return m_server.request("GET", base() + "/files?path=" + q(path));
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        QString why;
        m_id = lizard::test::createSandbox(m_server, {}, &why);
        LIZ_REQUIRE_SANDBOX(m_id, why);
    }

    void textRoundTripWithParents()
    {
        const QByteArray text = "héllo wörld\nzweite Zeile\n";
        const auto w = write("/work/deep/er/notes.txt", text, false);
        QVERIFY2(w.status == 204, qPrintable(describe(w)));
        const auto r = read("/work/deep/er/notes.txt");
        QCOMPARE(r.status, 200);
        QVERIFY(r.contentType.startsWith("application/octet-stream"));
        QCOMPARE(r.body, text);
    }

    void binaryRoundTrip()
    {
        QByteArray bytes;
        for (int i = 0; i < 256 * 16; ++i)
            bytes.append(char(i % 256));
        QCOMPARE(write("/tmp/all-bytes.bin", bytes, true).status, 204);
        QCOMPARE(read("/tmp/all-bytes.bin").body, bytes);
        // visible to commands too
        const auto sum =
            m_server.request("POST", base() + "/exec", R"({"cmd":"wc -c < /tmp/all-bytes.bin"})");
        QCOMPARE(jsonObject(sum).value("stdout").toString().trimmed(),
                 QString::number(bytes.size()));
    }

    void largeFile()
    {
        QByteArray big(3 << 20, '\0');
        for (qsizetype i = 0; i < big.size(); ++i)
            big[i] = char((i * 7919) % 251);
        QCOMPARE(write("/tmp/big.bin", big, true).status, 204);
        const auto r = read("/tmp/big.bin");
        QCOMPARE(r.body.size(), big.size());
        QVERIFY(r.body == big);
    }

    void oddPathsInQueries()
    {
        const QString path = "/tmp/a b+c&d=e%f.txt";
        QCOMPARE(write(path, "odd", false).status, 204);
        QCOMPARE(read(path).body, QByteArray("odd"));
        // URLSearchParams style: space as '+'
        const auto plus =
            m_server.request("GET", base() + "/files?path=%2Ftmp%2Fa+b%2Bc%26d%3De%25f.txt");
        QCOMPARE(plus.body, QByteArray("odd"));
    }

    void listAndStat()
    {
        QCOMPARE(write("/data/dir/one.txt", "1", false).status, 204);
        QCOMPARE(write("/data/dir/sub/two.txt", "22", false).status, 204);
        m_server.request("POST", base() + "/exec", R"({"cmd":"ln -s one.txt /data/dir/link"})");
        const auto l = m_server.request("GET", base() + "/files/list?path=" + q("/data/dir"));
        QVERIFY2(l.status == 200, qPrintable(describe(l)));
        QMap<QString, QJsonObject> byName;
        for (const auto& v : jsonArray(l))
            byName[v.toObject().value("name").toString()] = v.toObject();
        QCOMPARE(byName.keys(), (QStringList{"link", "one.txt", "sub"}));
        QCOMPARE(byName["one.txt"].value("type").toString(), QStringLiteral("file"));
        QCOMPARE(byName["one.txt"].value("path").toString(), QStringLiteral("/data/dir/one.txt"));
        QCOMPARE(byName["one.txt"].value("size").toInt(), 1);
        QCOMPARE(byName["sub"].value("type").toString(), QStringLiteral("dir"));
        QCOMPARE(byName["link"].value("type").toString(), QStringLiteral("symlink"));

        const auto s =
            m_server.request("GET", base() + "/files/stat?path=" + q("/data/dir/sub/two.txt"));
        QCOMPARE(s.status, 200);
        const QJsonObject st = jsonObject(s);
        QCOMPARE(st.value("size").toInt(), 2);
        QVERIFY(st.value("mode").isDouble()); // numbers, as the SDK types them
        QCOMPARE(st.value("mode").toInt() & 0777, 0644);
        QVERIFY(st.value("modTime").isDouble());
        QCOMPARE(st.value("modifiedAt"), st.value("modTime"));
        QVERIFY(qAbs(qint64(st.value("modTime").toDouble()) - QDateTime::currentMSecsSinceEpoch()) <
                120000);
    }

    void moveAndRemove()
    {
        QCOMPARE(write("/tmp/m/from.txt", "moving", false).status, 204);
        const auto mv = m_server.request(
            "POST", base() + "/files/move",
            toJson({{"from", "/tmp/m/from.txt"}, {"to", "/tmp/m/new/parents/to.txt"}}));
        QVERIFY2(mv.status == 204, qPrintable(describe(mv)));
        QVERIFY(isError(read("/tmp/m/from.txt"), 404, "NOT_FOUND"));
        QCOMPARE(read("/tmp/m/new/parents/to.txt").body, QByteArray("moving"));
        const auto rm = m_server.request("DELETE", base() + "/files", toJson({{"path", "/tmp/m"}}));
        QVERIFY2(rm.status == 204, qPrintable(describe(rm)));
        QVERIFY(isError(m_server.request("GET", base() + "/files/stat?path=" + q("/tmp/m")), 404,
                        "NOT_FOUND"));
        QVERIFY(isError(m_server.request("DELETE", base() + "/files", toJson({{"path", "/tmp/m"}})),
                        404, "NOT_FOUND"));
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("code");
        QTest::newRow("read missing") << QByteArray("GET") << "/files?path=%2Fno%2Fsuch"
                                      << QByteArray() << 404 << "NOT_FOUND";
        QTest::newRow("read relative") << QByteArray("GET") << "/files?path=etc%2Fpasswd"
                                       << QByteArray() << 400 << "INVALID_ARGUMENT";
        QTest::newRow("read without path")
            << QByteArray("GET") << "/files" << QByteArray() << 400 << "INVALID_ARGUMENT";
        QTest::newRow("stat missing") << QByteArray("GET") << "/files/stat?path=%2Fnope"
                                      << QByteArray() << 404 << "NOT_FOUND";
        QTest::newRow("list missing") << QByteArray("GET") << "/files/list?path=%2Fnope"
                                      << QByteArray() << 404 << "NOT_FOUND";
        QTest::newRow("write relative")
            << QByteArray("POST") << "/files" << QByteArray(R"({"path":"x","content":"a"})") << 400
            << "INVALID_ARGUMENT";
        QTest::newRow("write no content")
            << QByteArray("POST") << "/files" << QByteArray(R"({"path":"/x"})") << 400
            << "INVALID_ARGUMENT";
        QTest::newRow("write content a number")
            << QByteArray("POST") << "/files" << QByteArray(R"({"path":"/x","content":1})") << 400
            << "INVALID_ARGUMENT";
        QTest::newRow("write bad base64")
            << QByteArray("POST") << "/files"
            << QByteArray(R"({"path":"/x","content":"@@@","encoding":"base64"})") << 400
            << "INVALID_ARGUMENT";
        QTest::newRow("write unknown encoding")
            << QByteArray("POST") << "/files"
            << QByteArray(R"({"path":"/x","content":"a","encoding":"rot13"})") << 400
            << "INVALID_ARGUMENT";
        QTest::newRow("move missing")
            << QByteArray("POST") << "/files/move" << QByteArray(R"({"from":"/nope","to":"/x"})")
            << 404 << "NOT_FOUND";
        QTest::newRow("move relative")
            << QByteArray("POST") << "/files/move" << QByteArray(R"({"from":"a","to":"/x"})") << 400
            << "INVALID_ARGUMENT";
        QTest::newRow("read a directory")
            << QByteArray("GET") << "/files?path=%2Fetc" << QByteArray() << 400 << "IS_A_DIRECTORY";
        QTest::newRow("list a file") << QByteArray("GET") << "/files/list?path=%2Fetc%2Fhostname"
                                     << QByteArray() << 400 << "NOT_A_DIRECTORY";
        // Not an authentication problem: never 401/403 (the SDKs would say AuthenticationError).
        QTest::newRow("write where the user may not")
            << QByteArray("POST") << "/files"
            << QByteArray(R"({"path":"/root/x","content":"a","user":"user"})") << 400
            << "PERMISSION_DENIED";
        QTest::newRow("remove no path")
            << QByteArray("DELETE") << "/files" << QByteArray("{}") << 400 << "INVALID_ARGUMENT";
    }

    void errors()
    {
        QFETCH(QByteArray, method);
        QFETCH(QString, path);
        QFETCH(QByteArray, body);
        QFETCH(int, status);
        QFETCH(QString, code);
        const auto r = m_server.request(method, base() + path, body);
        QVERIFY2(isError(r, status, code), qPrintable(describe(r)));
    }

    void cleanupTestCase()
    {
        if (!m_id.isEmpty())
            m_server.request("DELETE", "/api/sandboxes/" + m_id);
    }
};

QTEST_GUILESS_MAIN(TestApiFiles)
#include "tst_api_files.moc"
