// LizardApi against a real lizard-local: projects, sandboxes, files, and error mapping.
// (Commands and streams are in tst_lizardapiexec.cpp.)

#include "support/apiwait.h"
#include "support/sandboxfixture.h"

#include <QTest>

using namespace lizard::client;
using lizard::test::ApiWaiter;

class TestLizardApi : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void cleanup() { m_fx.reportIfFailed(); }
    void whoAmI();
    void projectsCrud();
    void sandboxGetAndList();
    void sandboxTimeout();
    void createAndKillSandbox();
    void notFoundIsMapped();
    void badKeyIsAuthentication();
    void filesRoundTrip_data();
    void filesRoundTrip();
    void listStatMoveRemove();
    void rawJson();

private:
    LizardApi& api() { return m_fx.api(); }
    QString sb() const { return m_fx.sandboxId(); }
    FileEntry stat(const QString& path, ApiError* error = nullptr);

    lizard::test::SandboxFixture m_fx;
};

void TestLizardApi::initTestCase()
{
    const QString failure = m_fx.start();
    if (!failure.isEmpty())
        LIZ_NO_SANDBOX(m_fx.hostLacksSandboxes(), failure);
}

void TestLizardApi::cleanupTestCase()
{
    m_fx.stop();
}

void TestLizardApi::whoAmI()
{
    ApiWaiter<WhoAmI> me;
    api().whoAmI(this, me.done());
    LIZ_AWAIT_OK(me);
    // lizard-local names itself and its version in the Server header (the About box shows it).
    QVERIFY2(me.value().server.startsWith("lizard-local/"), qPrintable(me.value().server));
    QVERIFY(me.value().server.size() > int(qstrlen("lizard-local/")));
}

void TestLizardApi::projectsCrud()
{
    const QString name =
        QString::fromUtf8("client test é %1").arg(QDateTime::currentMSecsSinceEpoch());
    ApiWaiter<Project> created;
    api().createProject(name, this, created.done());
    LIZ_AWAIT_OK(created);
    const Project p = created.value();
    QCOMPARE(p.name, name);
    QVERIFY(!p.id.isEmpty());

    ApiWaiter<Project> renamed;
    api().renameProject(p.id, name + " renamed", this, renamed.done());
    LIZ_AWAIT_OK(renamed);
    QCOMPARE(renamed.value().id, p.id);
    QCOMPARE(renamed.value().name, name + " renamed");

    ApiWaiter<QList<Project>> listed;
    api().listProjects(this, listed.done());
    LIZ_AWAIT_OK(listed);
    const auto found = std::find_if(listed.value().begin(), listed.value().end(),
                                    [&](const Project& x) { return x.id == p.id; });
    QVERIFY(found != listed.value().end());
    QCOMPARE(found->name, name + " renamed");

    ApiWaiter<Unit> deleted;
    api().deleteProject(p.id, this, deleted.done());
    LIZ_AWAIT_OK(deleted);
    ApiWaiter<Unit> again;
    api().deleteProject(p.id, this, again.done());
    QVERIFY(again.wait());
    QCOMPARE(again.error().kind, ApiError::Kind::NotFound);
    QCOMPARE(again.error().httpStatus, 404);
}

void TestLizardApi::sandboxGetAndList()
{
    ApiWaiter<SandboxInfo> got;
    api().getSandbox(sb(), this, got.done());
    LIZ_AWAIT_OK(got);
    QCOMPARE(got.value().sandboxId, sb());
    QCOMPARE(got.value().templateName, QStringLiteral("base"));
    QCOMPARE(got.value().status, QStringLiteral("running"));
    QVERIFY(got.value().startedAt.isValid());
    QVERIFY(got.value().startedAt <= QDateTime::currentDateTimeUtc().addSecs(5));

    for (const QString& project : {QString(), m_fx.projectId()}) {
        ApiWaiter<QList<SandboxInfo>> listed;
        api().listSandboxes(project, this, listed.done());
        LIZ_AWAIT_OK(listed);
        QVERIFY(std::any_of(listed.value().begin(), listed.value().end(),
                            [&](const SandboxInfo& s) { return s.sandboxId == sb(); }));
    }
}

void TestLizardApi::sandboxTimeout()
{
    ApiWaiter<Unit> set;
    api().setSandboxTimeout(sb(), 120000, this, set.done());
    LIZ_AWAIT_OK(set);
    ApiWaiter<SandboxInfo> got;
    api().getSandbox(sb(), this, got.done());
    LIZ_AWAIT_OK(got);
    const qint64 left = QDateTime::currentDateTimeUtc().msecsTo(got.value().endAt);
    QVERIFY2(left > 100000 && left <= 121000, qPrintable(QString::number(left)));

    ApiWaiter<Unit> tooShort;
    api().setSandboxTimeout(sb(), 10, this, tooShort.done());
    QVERIFY(tooShort.wait());
    QCOMPARE(tooShort.error().kind, ApiError::Kind::InvalidRequest);

    ApiWaiter<Unit> restore;
    api().setSandboxTimeout(sb(), 900000, this, restore.done());
    LIZ_AWAIT_OK(restore);
}

void TestLizardApi::createAndKillSandbox()
{
    CreateSandboxRequest req;
    req.projectId = m_fx.projectId();
    req.size = QStringLiteral("nano");
    req.timeoutMs = 60000;
    req.metadata.insert(QStringLiteral("purpose"), QStringLiteral("tst_lizardapi"));
    ApiWaiter<SandboxInfo> created;
    api().createSandbox(req, this, created.done());
    QVERIFY2(created.wait(180000) && created.ok(), created.why().constData());
    const SandboxInfo s = created.value();
    QCOMPARE(s.size, QStringLiteral("nano"));
    QCOMPARE(s.metadata.value(QStringLiteral("purpose")), QStringLiteral("tst_lizardapi"));
    QVERIFY(s.endAt.isValid());

    ApiWaiter<Unit> killed;
    api().killSandbox(s.sandboxId, this, killed.done());
    LIZ_AWAIT_OK(killed);
    ApiWaiter<SandboxInfo> gone;
    api().getSandbox(s.sandboxId, this, gone.done());
    QVERIFY(gone.wait());
    QCOMPARE(gone.error().kind, ApiError::Kind::NotFound);
    ApiWaiter<Unit> again;
    api().killSandbox(s.sandboxId, this, again.done());
    QVERIFY(again.wait());
    QCOMPARE(again.error().kind, ApiError::Kind::NotFound);
}

void TestLizardApi::notFoundIsMapped()
{
    ApiWaiter<SandboxInfo> got;
    api().getSandbox(QStringLiteral("sb_does_not_exist"), this, got.done());
    QVERIFY(got.wait());
    QCOMPARE(got.error().kind, ApiError::Kind::NotFound);
    QCOMPARE(got.error().httpStatus, 404);
    QCOMPARE(got.error().code, QStringLiteral("NOT_FOUND"));
    QVERIFY(got.error().toDisplayString().startsWith(
        QStringLiteral("Get sandbox failed: 404 NOT_FOUND: ")));
}

void TestLizardApi::badKeyIsAuthentication()
{
    for (const QString& key : {QStringLiteral("liz_wrong"), QString()}) {
        LizardApi other(Endpoint{m_fx.server().url(), key});
        ApiWaiter<QList<Project>> listed;
        other.listProjects(this, listed.done());
        QVERIFY(listed.wait());
        QCOMPARE(listed.error().kind, ApiError::Kind::Authentication);
        QCOMPARE(listed.error().httpStatus, 401);
    }
}

void TestLizardApi::filesRoundTrip_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QByteArray>("content");
    QByteArray allBytes;
    for (int i = 0; i < 256 * 4; ++i)
        allBytes.append(char(i % 256));
    QTest::newRow("every byte value") << "/tmp/client-files/all.bin" << allBytes;
    QTest::newRow("utf-8 text") << QString::fromUtf8("/tmp/client-files/é 🦎 & = + ?.txt")
                                << QByteArray("caf\xC3\xA9 \xF0\x9F\xA6\x8E\nline 2\n");
    QTest::newRow("invalid utf-8") << "/tmp/client-files/latin1.txt" << QByteArray("caf\xE9\n");
    QTest::newRow("empty") << "/tmp/client-files/deep/er/empty" << QByteArray();
    QTest::newRow("1 MiB") << "/tmp/client-files/big.bin"
                           << QByteArray(1 << 20, '\x7f').append('\0');
}

void TestLizardApi::filesRoundTrip()
{
    QFETCH(QString, path);
    QFETCH(QByteArray, content);
    ApiWaiter<Unit> written;
    api().writeFile(sb(), path, content, this, written.done());
    LIZ_AWAIT_OK(written);
    ApiWaiter<QByteArray> read;
    api().readFile(sb(), path, this, read.done());
    LIZ_AWAIT_OK(read);
    QCOMPARE(read.value().size(), content.size());
    QVERIFY(read.value() == content);
}

FileEntry TestLizardApi::stat(const QString& path, ApiError* error)
{
    ApiWaiter<FileEntry> st;
    api().statFile(sb(), path, this, st.done());
    if (!st.wait())
        return {};
    if (!st.ok()) {
        if (error != nullptr)
            *error = st.error();
        return {};
    }
    return st.value();
}

void TestLizardApi::listStatMoveRemove()
{
    ApiWaiter<Unit> written;
    api().writeFile(sb(), QStringLiteral("/tmp/lsmr/d/x.txt"), "hello", this, written.done());
    LIZ_AWAIT_OK(written);

    ApiWaiter<QList<FileEntry>> listed;
    api().listDir(sb(), QStringLiteral("/tmp/lsmr/d"), this, listed.done());
    LIZ_AWAIT_OK(listed);
    QCOMPARE(listed.value().size(), 1);
    QCOMPARE(listed.value()[0].name, QStringLiteral("x.txt"));
    QCOMPARE(listed.value()[0].path, QStringLiteral("/tmp/lsmr/d/x.txt"));
    QCOMPARE(listed.value()[0].type, QStringLiteral("file"));
    QCOMPARE(listed.value()[0].size, 5);

    const FileEntry st = stat(QStringLiteral("/tmp/lsmr/d/x.txt"));
    QCOMPARE(st.size, 5);
    QCOMPARE(st.type, QStringLiteral("file"));
    QVERIFY(st.modifiedAt.isValid());
    QCOMPARE(stat(QStringLiteral("/tmp/lsmr/d")).type, QStringLiteral("dir"));

    ApiWaiter<Unit> moved;
    api().moveFile(sb(), QStringLiteral("/tmp/lsmr/d/x.txt"),
                   QStringLiteral("/tmp/lsmr/new parent/y.txt"), this, moved.done());
    LIZ_AWAIT_OK(moved);
    ApiError e;
    stat(QStringLiteral("/tmp/lsmr/d/x.txt"), &e);
    QCOMPARE(e.kind, ApiError::Kind::NotFound);
    QCOMPARE(stat(QStringLiteral("/tmp/lsmr/new parent/y.txt")).size, 5);

    ApiWaiter<Unit> removed;
    api().removeFile(sb(), QStringLiteral("/tmp/lsmr/new parent/y.txt"), this, removed.done());
    LIZ_AWAIT_OK(removed);
    e = {};
    stat(QStringLiteral("/tmp/lsmr/new parent/y.txt"), &e);
    QCOMPARE(e.kind, ApiError::Kind::NotFound);

    ApiWaiter<QByteArray> missing;
    api().readFile(sb(), QStringLiteral("/tmp/lsmr/nope"), this, missing.done());
    QVERIFY(missing.wait());
    QCOMPARE(missing.error().kind, ApiError::Kind::NotFound);
}

void TestLizardApi::rawJson()
{
    ApiWaiter<QByteArray> got;
    api().rawJson("get", QStringLiteral("/api/projects/") + m_fx.projectId(), {}, this, got.done());
    LIZ_AWAIT_OK(got);
    QVERIFY(got.value().contains(m_fx.projectId().toUtf8()));
}

QTEST_GUILESS_MAIN(TestLizardApi)
#include "tst_lizardapi.moc"
