// FileChangeFeed against a canned HTTP server (tests/client/minihttpserver.h): where the server
// has no fs.watch (501, as the cloud answers) it stops and refresh on demand still works; with
// fs.watch, a drain re-lists each shown folder that changed once, however many events it
// had, leaves folders that are not shown alone, and an overflow marker re-lists all.
#include "../client/minihttpserver.h"
#include "client/lizardapi.h"
#include "models/files/filechangefeed.h"
#include "models/files/sandboxfilemodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace lizard;
using lizard::test::MiniHttpServer;
using lizard::test::MiniResponse;
using models::files::FileChangeFeed;
using models::files::SandboxFileModel;

namespace {

const QByteArray kBase = "/api/sandboxes/sb_1";
const QList<QByteArray> kJson{"Content-Type: application/json"};

MiniResponse json(int status, const QByteArray& body)
{
    return MiniResponse{status, kJson, body};
}

QByteArray fsEvent(const char* type, const QString& path)
{
    return QStringLiteral(R"({"type":"%1","name":"%2","path":"%3"})")
        .arg(QLatin1String(type), path.section('/', -1), path)
        .toUtf8();
}

} // namespace

class TestFileChangeFeed : public QObject
{
    Q_OBJECT

    std::unique_ptr<MiniHttpServer> m_server;
    std::unique_ptr<client::LizardApi> m_api;

    int count(const QByteArray& method, const QByteArray& pathAndQuery) const
    {
        int n = 0;
        for (const auto& r : m_server->requests())
            n += r.method == method && r.target.startsWith(pathAndQuery) ? 1 : 0;
        return n;
    }
    // The body of the last POST .../files/watch.
    QByteArray lastWatchBody() const
    {
        QByteArray body;
        for (const auto& r : m_server->requests())
            if (r.method == "POST" && r.target == kBase + "/files/watch")
                body = r.body;
        return body;
    }
    int listings(const char* encodedPath) const
    {
        int n = 0;
        for (const auto& r : m_server->requests())
            n += r.method == "GET" && r.target == kBase + "/files/list?path=" + encodedPath ? 1 : 0;
        return n;
    }

private slots:
    void init()
    {
        m_server = std::make_unique<MiniHttpServer>();
        QVERIFY(m_server->listen());
        m_api = std::make_unique<client::LizardApi>(client::Endpoint{m_server->url(), "liz_test"});
        m_server->route(kBase + "/files/list",
                        json(200, R"([{"name":"sub","path":"/home/user/sub","type":"dir","size":0},
                                      {"name":"a.txt","path":"/home/user/a.txt","type":"file","size":1}])"));
    }

    void cleanup()
    {
        m_api.reset();
        m_server.reset();
    }

    void withoutWatchRefreshesOnDemand()
    {
        m_server->route(kBase + "/files/watch",
                        json(501, R"({"error":"NOT_IMPLEMENTED","code":"NOT_IMPLEMENTED",
                                      "message":"file watching is not implemented"})"));
        SandboxFileModel model(m_api.get());
        QAbstractItemModelTester tester(&model);
        FileChangeFeed feed(m_api.get(), &model);
        model.setLocation("sb_1", "/home/user");
        model.fetchMore({});
        QTRY_COMPARE(feed.state(), FileChangeFeed::State::Unsupported);
        QTRY_COMPARE(model.rowCount(), 2);
        QTest::qWait(3 * FileChangeFeed::kPollMs);
        QCOMPARE(count("GET", kBase + "/files/watch/events"), 0); // it does not poll
        const int before = listings("%2Fhome%2Fuser");
        model.refresh(); // the Refresh button
        QTRY_COMPARE(listings("%2Fhome%2Fuser"), before + 1);
    }

    void aDrainRelistsEachShownFolderOnce()
    {
        m_server->route(kBase + "/files/watch", json(200, R"({"watcherId":"w-1"})"));
        m_server->route(kBase + "/files/watch/events", json(200, "[]"));
        SandboxFileModel model(m_api.get());
        FileChangeFeed feed(m_api.get(), &model);
        QSignalSpy changed(&feed, &FileChangeFeed::foldersChanged);
        model.setLocation("sb_1", "/home/user");
        model.fetchMore({});
        QTRY_COMPARE(feed.state(), FileChangeFeed::State::Live);
        QTRY_COMPARE(model.rowCount(), 2);
        QTRY_VERIFY(count("GET", kBase + "/files/watch/events?watcherId=w-1") >= 1);
        const QByteArray post = lastWatchBody();
        QVERIFY2(post.contains(R"("recursive":true)") && post.contains(R"("path":"/home/user")"),
                 post.constData());

        // 200 events in the shown folder and 50 in a folder nobody expanded.
        QByteArrayList events;
        for (int i = 0; i < 200; ++i)
            events << fsEvent("write", QStringLiteral("/home/user/f%1").arg(i));
        for (int i = 0; i < 50; ++i)
            events << fsEvent("create", QStringLiteral("/home/user/sub/g%1").arg(i));
        const int before = listings("%2Fhome%2Fuser");
        m_server->route(kBase + "/files/watch/events", json(200, "[" + events.join(',') + "]"));
        QTRY_VERIFY(!changed.isEmpty());
        m_server->route(kBase + "/files/watch/events", json(200, "[]"));
        QCOMPARE(changed.first().first().toInt(), 1); // one folder asked to list, not 250 events
        QTRY_COMPARE(listings("%2Fhome%2Fuser"), before + 1);
        QTest::qWait(3 * FileChangeFeed::kPollMs);
        QCOMPARE(listings("%2Fhome%2Fuser"), before + 1);
        QCOMPARE(listings("%2Fhome%2Fuser%2Fsub"), 0); // not shown: nothing to list

        // Lost events: every shown folder lists again.
        changed.clear();
        m_server->route(
            kBase + "/files/watch/events",
            json(200,
                 "[" + fsEvent("create", "/home/user/x") +
                     R"(,{"type":"overflow","name":"user","path":"/home/user","dropped":3}])"));
        QTRY_VERIFY(!changed.isEmpty());
        m_server->route(kBase + "/files/watch/events", json(200, "[]"));
        QCOMPARE(changed.first().first().toInt(), -1);
        QTRY_COMPARE(listings("%2Fhome%2Fuser"), before + 2);
    }

    void closesItsWatcherWhenTheFolderChanges()
    {
        m_server->route(kBase + "/files/watch", json(200, R"({"watcherId":"w-9"})"));
        m_server->route(kBase + "/files/watch/events", json(200, "[]"));
        SandboxFileModel model(m_api.get());
        FileChangeFeed feed(m_api.get(), &model);
        model.setLocation("sb_1", "/home/user");
        QTRY_COMPARE(feed.state(), FileChangeFeed::State::Live);
        model.setLocation("sb_1", "/");
        QTRY_COMPARE(count("DELETE", kBase + "/files/watch?watcherId=w-9"), 1);
        QTRY_COMPARE(feed.state(), FileChangeFeed::State::Live);
        // "/" holds /proc and /usr: watched without recursive.
        const QByteArray post = lastWatchBody();
        QVERIFY2(post.contains(R"("recursive":false)") && post.contains(R"("path":"/")"),
                 post.constData());
    }
};

QTEST_GUILESS_MAIN(TestFileChangeFeed)
#include "tst_filechangefeed.moc"
