// LizardApi's lifecycle calls against a real lizard-local: pause and resume, snapshot and
// restore, fork, volumes.

#include "support/apiwait.h"
#include "support/sandboxfixture.h"

#include <QDeadlineTimer>
#include <QTest>

using namespace lizard::client;
using lizard::test::ApiWaiter;

class TestLizardApiLifecycle : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void cleanup() { m_fx.reportIfFailed(); }
    void pauseAndResume();
    void snapshotAndRestore();
    void forkTwo();
    void volumes();

private:
    LizardApi& api() { return m_fx.api(); }
    QString sb() const { return m_fx.sandboxId(); }
    // Polls getSandbox until its status is `status` (or timeout).
    bool waitForStatus(const QString& id, const QString& status, QString* last);
    QString createSandbox(CreateSandboxRequest req, ApiError* error = nullptr);
    void kill(const QString& id);

    lizard::test::SandboxFixture m_fx;
    QStringList m_extra; // sandboxes this test made besides the fixture's
};

void TestLizardApiLifecycle::initTestCase()
{
    const QString failure = m_fx.start();
    if (!failure.isEmpty())
        LIZ_NO_SANDBOX(m_fx.hostLacksSandboxes(), failure);
}

void TestLizardApiLifecycle::cleanupTestCase()
{
    for (const QString& id : std::as_const(m_extra))
        kill(id);
    m_fx.stop();
}

bool TestLizardApiLifecycle::waitForStatus(const QString& id, const QString& status, QString* last)
{
    return lizard::test::waitUntil(
        [&] {
            ApiWaiter<SandboxInfo> info;
            api().getSandbox(id, this, info.done());
            *last = info.wait() && info.ok() ? info.value().status : QString::fromUtf8(info.why());
            return *last == status;
        },
        30000, 100);
}

QString TestLizardApiLifecycle::createSandbox(CreateSandboxRequest req, ApiError* error)
{
    req.projectId = m_fx.projectId();
    if (req.timeoutMs == 300000)
        req.timeoutMs = 600000;
    ApiWaiter<SandboxInfo> created;
    api().createSandbox(req, this, created.done());
    if (!created.wait(180000) || !created.ok()) {
        if (error != nullptr && created.arrived())
            *error = created.error();
        return {};
    }
    m_extra << created.value().sandboxId;
    return created.value().sandboxId;
}

void TestLizardApiLifecycle::kill(const QString& id)
{
    ApiWaiter<Unit> killed;
    api().killSandbox(id, nullptr, killed.done());
    killed.wait(30000);
    m_extra.removeAll(id);
}

void TestLizardApiLifecycle::pauseAndResume()
{
    ApiWaiter<Unit> paused;
    api().pauseSandbox(sb(), this, paused.done());
    QVERIFY(paused.wait());
    QVERIFY2(paused.ok(), paused.why().constData());
    QString status;
    QVERIFY2(waitForStatus(sb(), "paused", &status), qPrintable(status));

    // A command to a paused sandbox is refused with a conflict that says so.
    ApiWaiter<ExecResult> refused;
    api().exec(sb(), "true", {}, this, refused.done());
    QVERIFY(refused.wait());
    QVERIFY(!refused.ok());
    QCOMPARE(refused.error().kind, ApiError::Kind::Conflict);
    QVERIFY2(refused.error().toDisplayString().contains("paused", Qt::CaseInsensitive),
             refused.why().constData());

    ApiWaiter<Unit> resumed;
    api().resumeSandbox(sb(), this, resumed.done());
    LIZ_AWAIT_OK(resumed);
    QVERIFY2(waitForStatus(sb(), "running", &status), qPrintable(status));
    ApiWaiter<ExecResult> ran;
    api().exec(sb(), "echo back", {}, this, ran.done());
    LIZ_AWAIT_OK(ran);
    QCOMPARE(ran.value().stdoutText, QString("back\n"));

    // An unknown sandbox is a 404, as for every sandbox call.
    ApiWaiter<Unit> again;
    api().resumeSandbox("sb_does_not_exist", this, again.done());
    QVERIFY(again.wait());
    QCOMPARE(again.error().kind, ApiError::Kind::NotFound);
}

void TestLizardApiLifecycle::snapshotAndRestore()
{
    ApiWaiter<Unit> wrote;
    api().writeFile(sb(), "/home/user/kept.txt", "from the snapshot", this, wrote.done());
    LIZ_AWAIT_OK(wrote);

    ApiWaiter<Snapshot> taken;
    api().createSnapshot(sb(), QString::fromUtf8("lifecycle test ✓"), this, taken.done());
    QVERIFY(taken.wait(120000));
    QVERIFY2(taken.ok(), taken.why().constData());
    const Snapshot snap = taken.value();
    QVERIFY(!snap.id.isEmpty());
    QCOMPARE(snap.name, QString::fromUtf8("lifecycle test ✓"));
    QCOMPARE(snap.sourceSandboxId, sb());
    QCOMPARE(snap.projectId, m_fx.projectId());

    // It becomes ready, and both lists show it.
    Snapshot ready = snap;
    QDeadlineTimer deadline(120000);
    while (ready.status != "ready" && ready.status != "failed" && !deadline.hasExpired()) {
        QTest::qWait(200);
        ApiWaiter<Snapshot> got;
        api().getSnapshot(snap.id, this, got.done());
        LIZ_AWAIT_OK(got);
        ready = got.value();
    }
    QVERIFY2(ready.status == "ready", qPrintable(ready.status + " " + ready.error));
    ApiWaiter<QList<Snapshot>> inProject;
    api().listSnapshots(m_fx.projectId(), this, inProject.done());
    LIZ_AWAIT_OK(inProject);
    QVERIFY(std::any_of(inProject.value().begin(), inProject.value().end(),
                        [&](const Snapshot& s) { return s.id == snap.id; }));
    ApiWaiter<QList<Snapshot>> all;
    api().listAllSnapshots(this, all.done());
    LIZ_AWAIT_OK(all);
    QVERIFY(std::any_of(all.value().begin(), all.value().end(),
                        [&](const Snapshot& s) { return s.id == snap.id; }));

    // Restore: a new sandbox with the files.
    CreateSandboxRequest req;
    req.snapshotId = snap.id;
    ApiError error;
    const QString copy = createSandbox(req, &error);
    QVERIFY2(!copy.isEmpty(), qPrintable(error.toDisplayString()));
    ApiWaiter<QByteArray> read;
    api().readFile(copy, "/home/user/kept.txt", this, read.done());
    LIZ_AWAIT_OK(read);
    QCOMPARE(read.value(), QByteArray("from the snapshot"));
    kill(copy);

    ApiWaiter<Unit> deleted;
    api().deleteSnapshot(snap.id, this, deleted.done());
    LIZ_AWAIT_OK(deleted);
    ApiWaiter<Snapshot> gone;
    api().getSnapshot(snap.id, this, gone.done());
    QVERIFY(gone.wait());
    QCOMPARE(gone.error().kind, ApiError::Kind::NotFound);
}

void TestLizardApiLifecycle::forkTwo()
{
    ApiWaiter<Unit> wrote;
    api().writeFile(sb(), "/home/user/forked.txt", "in every copy", this, wrote.done());
    LIZ_AWAIT_OK(wrote);
    ApiWaiter<QList<ForkEntry>> forked;
    api().forkSandbox(sb(), 2, 600000, this, forked.done());
    QVERIFY(forked.wait(180000));
    QVERIFY2(forked.ok(), forked.why().constData());
    QCOMPARE(forked.value().size(), 2);
    QStringList ids;
    for (const ForkEntry& entry : forked.value()) {
        QVERIFY2(entry.sandbox.has_value(), qPrintable(entry.error));
        ids << entry.sandbox->sandboxId;
        m_extra << entry.sandbox->sandboxId;
    }
    QVERIFY(ids.at(0) != ids.at(1) && !ids.contains(sb()));
    for (const QString& id : std::as_const(ids)) {
        ApiWaiter<QByteArray> read;
        api().readFile(id, "/home/user/forked.txt", this, read.done());
        LIZ_AWAIT_OK(read);
        QCOMPARE(read.value(), QByteArray("in every copy"));
        kill(id);
    }
    // The source keeps running.
    ApiWaiter<SandboxInfo> source;
    api().getSandbox(sb(), this, source.done());
    LIZ_AWAIT_OK(source);
    QCOMPARE(source.value().status, QString("running"));

    ApiWaiter<QList<ForkEntry>> tooMany;
    api().forkSandbox(sb(), 101, 0, this, tooMany.done());
    QVERIFY(tooMany.wait());
    QVERIFY(!tooMany.ok());
    QCOMPARE(tooMany.error().kind, ApiError::Kind::InvalidRequest);
}

void TestLizardApiLifecycle::volumes()
{
    const QString project = m_fx.projectId();
    const QString name =
        QStringLiteral("scratch-%1").arg(QDateTime::currentMSecsSinceEpoch() % 100000);
    ApiWaiter<Volume> created;
    api().createVolume(project, name, 1, this, created.done());
    QVERIFY(created.wait());
    QVERIFY2(created.ok(), created.why().constData());
    const Volume vol = created.value();
    QCOMPARE(vol.name, name);
    QCOMPARE(vol.sizeGb, 1);
    QVERIFY(vol.attachedTo.isEmpty());

    ApiWaiter<Volume> twice;
    api().createVolume(project, name, 1, this, twice.done());
    QVERIFY(twice.wait());
    QCOMPARE(twice.error().kind, ApiError::Kind::Conflict);
    ApiWaiter<Volume> same;
    api().getOrCreateVolume(project, name, 7, this, same.done());
    LIZ_AWAIT_OK(same);
    QCOMPARE(same.value().id, vol.id);
    QCOMPARE(same.value().sizeGb, 1); // an existing volume keeps its size

    ApiWaiter<Volume> grown;
    api().resizeVolume(project, name, 2, this, grown.done());
    LIZ_AWAIT_OK(grown);
    QCOMPARE(grown.value().sizeGb, 2);
    ApiWaiter<Volume> shrunk;
    api().resizeVolume(project, vol.id, 1, this, shrunk.done());
    QVERIFY(shrunk.wait());
    QVERIFY(!shrunk.ok());

    // Attached at /workspace; the list says which sandbox holds it; files outlive the sandbox.
    CreateSandboxRequest req;
    req.volumeName = name;
    ApiError error;
    const QString holder = createSandbox(req, &error);
    QVERIFY2(!holder.isEmpty(), qPrintable(error.toDisplayString()));
    ApiWaiter<Unit> wrote;
    api().writeFile(holder, "/workspace/notes.txt", "notes", this, wrote.done());
    LIZ_AWAIT_OK(wrote);
    ApiWaiter<QList<Volume>> listed;
    api().listVolumes(project, this, listed.done());
    LIZ_AWAIT_OK(listed);
    const auto it = std::find_if(listed.value().begin(), listed.value().end(),
                                 [&](const Volume& v) { return v.id == vol.id; });
    QVERIFY(it != listed.value().end());
    QCOMPARE(it->attachedTo, holder);
    kill(holder);

    const QString second = createSandbox(req, &error);
    QVERIFY2(!second.isEmpty(), qPrintable(error.toDisplayString()));
    ApiWaiter<QByteArray> read;
    api().readFile(second, "/workspace/notes.txt", this, read.done());
    LIZ_AWAIT_OK(read);
    QCOMPARE(read.value(), QByteArray("notes"));
    kill(second);

    ApiWaiter<Volume> byId;
    api().getVolume(project, vol.id, this, byId.done());
    LIZ_AWAIT_OK(byId);
    QCOMPARE(byId.value().name, name);
    ApiWaiter<Unit> deleted;
    api().deleteVolume(project, name, this, deleted.done());
    LIZ_AWAIT_OK(deleted);
    ApiWaiter<Volume> gone;
    api().getVolume(project, name, this, gone.done());
    QVERIFY(gone.wait());
    QCOMPARE(gone.error().kind, ApiError::Kind::NotFound);
}

QTEST_GUILESS_MAIN(TestLizardApiLifecycle)
#include "tst_lizardapilifecycle.moc"
