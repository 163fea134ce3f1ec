// A notebook session without a window: a fresh one has one empty cell and nothing to save;
// saving and opening go through its file and say what failed; the recovery copy is written while
// dirty and removed when the session closes on purpose, kept when it is only destroyed; moving to
// another sandbox rebinds the watch and the metadata and says so; a fork's copy is named after
// its original; the kernel's state reads busy while cells run; template and size come from the
// metadata; restart, interrupt and clear act on the kernel, the queue and the cells.
#include "notebook/cell.h"
#include "notebook/notebookdocument.h"
#include "notebook/notebookfile.h"
#include "notebook/notebooksession.h"
#include "notebook/recoverywatcher.h"
#include "notebook/runqueue.h"
#include "notebook/sandboxwatch.h"
#include "scriptedrunner.h"

#include <QDir>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace lizard::notebook;
using lizard::notebook::test::ScriptedRunner;

namespace {

// A kernel whose state and restarts the test sets.
class SessionKernel : public NotebookKernel
{
public:
    ContextChoice context() const override { return m_context; }
    QString state() const override { return m_state; }
    void listContexts(ListDone done) override { done({m_context}, {}); }
    void createContext(const QString& language, ContextDone done) override
    {
        done(ContextChoice{QStringLiteral("new"), language, {}}, {});
    }
    void selectContext(const ContextChoice& context) override
    {
        m_context = context;
        emit contextChanged();
    }
    void restart(Done done) override
    {
        ++restarts;
        done(restartError);
    }
    void setState(const QString& state)
    {
        m_state = state;
        emit stateChanged(state);
    }

    int restarts = 0;
    QString restartError;

private:
    ContextChoice m_context{QString(), QStringLiteral("python"), {}};
    QString m_state = QStringLiteral("idle");
};

std::string lizardMeta(const NotebookSession& s, const char* key)
{
    return s.document()->metadata().value("lizard", nlohmann::json::object()).value(key, "");
}

} // namespace

class TestNotebookSession : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void freshSessionHasOneCleanCell();
    void saveAndOpen();
    void openFailureLeavesTheDocument();
    void openInBackground();
    void recoveryCopyWhileDirty();
    void movesToAnotherSandbox();
    void branchOfAFork();
    void kernelStateFollowsRunsAndKernel();
    void contextLanguageInMetadata();
    void templateAndSizeFromMetadata();
    void restartInterruptAndClear();

private:
    NotebookSession* make(SessionKernel* kernel = nullptr)
    {
        m_runner = new ScriptedRunner;
        m_session = new NotebookSession(QStringLiteral("sb-1"), m_runner, kernel);
        return m_session;
    }

    QTemporaryDir m_dir;
    ScriptedRunner* m_runner = nullptr;
    NotebookSession* m_session = nullptr;
};

void TestNotebookSession::init()
{
    QVERIFY(m_dir.isValid());
}

void TestNotebookSession::cleanup()
{
    delete m_session;
    m_session = nullptr;
}

void TestNotebookSession::freshSessionHasOneCleanCell()
{
    NotebookSession* s = make();
    QCOMPARE(s->document()->cellCount(), 1);
    QCOMPARE(s->document()->cell(0)->type(), CellType::Code);
    QVERIFY(!s->document()->isDirty());
    QVERIFY(s->displayName().startsWith("Untitled-"));
    QVERIFY(s->displayName().endsWith(".ipynb"));
    QCOMPARE(s->displayName(), s->untitledName());
    QCOMPARE(lizardMeta(*s, "sandboxId"), std::string("sb-1"));
    QCOMPARE(s->sandboxWatch()->sandboxId(), QString("sb-1"));
    QCOMPARE(s->kernelState(), QString("idle")); // no kernel: a fixed context, never dead
    QVERIFY(s->runner() == m_runner);
    QVERIFY(m_runner->parent() == s); // the session owns what it was given
}

void TestNotebookSession::saveAndOpen()
{
    NotebookSession* s = make();
    QSignalSpy titles(s, &NotebookSession::titleChanged);
    s->document()->cell(0)->setSource(QStringLiteral("x = 1"));
    QVERIFY(s->document()->isDirty());
    QVERIFY(titles.count() >= 1);
    QVERIFY(s->save().has_value()); // no path yet: refused, with a reason
    const QString path = m_dir.filePath("a.ipynb");
    QVERIFY(!s->saveAs(path).has_value());
    QCOMPARE(s->displayName(), QString("a.ipynb"));
    QVERIFY(!s->document()->isDirty());
    QVERIFY(QFile::exists(path));

    delete m_session;
    NotebookSession* again = make();
    QVERIFY(!again->open(path).has_value());
    QCOMPARE(again->document()->cell(0)->source(), QString("x = 1"));
    QCOMPARE(again->file()->path(), path);
}

void TestNotebookSession::openFailureLeavesTheDocument()
{
    const QString broken = m_dir.filePath("broken.ipynb");
    QFile f(broken);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{ not json");
    f.close();
    NotebookSession* s = make();
    s->document()->cell(0)->setSource(QStringLiteral("kept"));
    const MaybeError error = s->open(broken);
    QVERIFY(error.has_value());
    QVERIFY2(error->message().contains("broken.ipynb"), qPrintable(error->message()));
    QCOMPARE(s->document()->cell(0)->source(), QString("kept"));
    QVERIFY(s->save().has_value()); // never written over but by an explicit Save As
    QFile again(broken);
    QVERIFY(again.open(QIODevice::ReadOnly));
    QCOMPARE(again.readAll(), QByteArray("{ not json"));
}

void TestNotebookSession::openInBackground()
{
    NotebookSession* s = make();
    s->document()->cell(0)->setSource(QStringLiteral("y = 2"));
    const QString path = m_dir.filePath("b.ipynb");
    QVERIFY(!s->saveAs(path).has_value());
    delete m_session;

    NotebookSession* again = make();
    std::optional<MaybeError> outcome;
    again->openInBackground(path, [&](MaybeError e) { outcome = std::move(e); });
    QVERIFY(!outcome); // read on a pool thread, taken in a later turn
    QCOMPARE(again->document()->cell(0)->source(), QString());
    QTRY_VERIFY(outcome.has_value());
    QVERIFY(!outcome->has_value());
    QCOMPARE(again->document()->cell(0)->source(), QString("y = 2"));
    QCOMPARE(again->file()->path(), path);

    // A broken file: the document stays as it was and is never saved over the file.
    const QString broken = m_dir.filePath("broken2.ipynb");
    QFile f(broken);
    QVERIFY(f.open(QIODevice::WriteOnly) && f.write("[1, 2") > 0);
    f.close();
    outcome.reset();
    again->openInBackground(broken, [&](MaybeError e) { outcome = std::move(e); });
    QTRY_VERIFY(outcome.has_value());
    QVERIFY(outcome->has_value());
    QVERIFY2((*outcome)->message().contains("broken2.ipynb"), qPrintable((*outcome)->message()));
    QCOMPARE(again->document()->cell(0)->source(), QString("y = 2"));
    QVERIFY(again->save().has_value());

    // A session gone before the file is in: nothing happens.
    NotebookSession* gone =
        new NotebookSession(QStringLiteral("sb-2"), new ScriptedRunner, nullptr);
    bool called = false;
    gone->openInBackground(path, [&](MaybeError) { called = true; });
    delete gone;
    QTest::qWait(200);
    QVERIFY(!called);
}

void TestNotebookSession::recoveryCopyWhileDirty()
{
    const RecoveryStore store(m_dir.filePath("recovery"));
    NotebookSession* s = make();
    s->enableRecovery(store, 20);
    QVERIFY(s->recoveryWatcher());
    s->document()->cell(0)->setSource(QStringLiteral("print('unsaved')"));
    QTRY_COMPARE(store.entries().size(), size_t(1));
    QVERIFY(s->recoveryWatcher()->waitForWrites());
    const auto data = store.load(store.entries().front());
    QVERIFY(data.ok());
    QCOMPARE(data.value().cells.at(0).source, QString("print('unsaved')"));

    // Destroyed without closing (a crash, a kill): the copy stays for the next start.
    delete m_session;
    m_session = nullptr;
    QCOMPARE(store.entries().size(), size_t(1));
    store.discard(store.entries().front());

    // Closed on purpose: the copy goes.
    NotebookSession* closed = make();
    closed->enableRecovery(store, 20);
    closed->document()->cell(0)->setSource(QStringLiteral("y = 2"));
    QTRY_COMPARE(store.entries().size(), size_t(1));
    closed->close();
    QVERIFY(closed->recoveryWatcher()->waitForWrites());
    QTRY_COMPARE(store.entries().size(), size_t(0));
}

void TestNotebookSession::movesToAnotherSandbox()
{
    NotebookSession* s = make();
    QSignalSpy moved(s, &NotebookSession::sandboxChanged);
    QSignalSpy notices(s, &NotebookSession::notice);
    s->document()->cell(0)->setSource(QStringLiteral("z = 3"));
    s->setSandboxId(QStringLiteral("sb-2"));
    QCOMPARE(moved.count(), 1);
    QCOMPARE(moved.first().first().toString(), QString("sb-2"));
    QCOMPARE(s->sandboxId(), QString("sb-2"));
    QCOMPARE(s->sandboxWatch()->sandboxId(), QString("sb-2"));
    QCOMPARE(lizardMeta(*s, "sandboxId"), std::string("sb-2"));
    QCOMPARE(s->document()->cell(0)->source(), QString("z = 3")); // sources stay
    QCOMPARE(notices.count(), 1);
    QVERIFY(notices.first().first().toString().contains("variables start empty"));
    s->setSandboxId(QStringLiteral("sb-2")); // the same one: nothing happens
    QCOMPARE(moved.count(), 1);
}

void TestNotebookSession::branchOfAFork()
{
    NotebookSession* s = make();
    QSignalSpy titles(s, &NotebookSession::titleChanged);
    s->setBranchOf(QStringLiteral("analysis.ipynb"));
    QCOMPARE(titles.count(), 1);
    QCOMPARE(s->branchOf(), QString("analysis.ipynb"));
    QVERIFY2(s->displayName().endsWith("(branch of analysis.ipynb)"), qPrintable(s->displayName()));
    // Once saved it has a name of its own.
    QVERIFY(!s->saveAs(m_dir.filePath("branch.ipynb")).has_value());
    QCOMPARE(s->displayName(), QString("branch.ipynb"));
}

void TestNotebookSession::kernelStateFollowsRunsAndKernel()
{
    auto* kernel = new SessionKernel;
    NotebookSession* s = make(kernel);
    QSignalSpy states(s, &NotebookSession::kernelStateChanged);
    QCOMPARE(s->kernelState(), QString("idle"));
    s->document()->cell(0)->setSource(QStringLiteral("wait"));
    s->runQueue()->run(s->document()->cell(0));
    QTRY_COMPARE(s->kernelState(), QString("busy"));
    kernel->setState(QStringLiteral("dead")); // a dead kernel says so, even while runs queue
    QCOMPARE(s->kernelState(), QString("dead"));
    kernel->setState(QStringLiteral("idle"));
    QCOMPARE(s->kernelState(), QString("busy"));
    QTRY_VERIFY(m_runner->waiting);
    m_runner->release();
    QTRY_COMPARE(s->kernelState(), QString("idle"));
    QStringList seen;
    for (const auto& args : states)
        seen << args.first().toString();
    QCOMPARE(seen, QStringList({"busy", "dead", "busy", "idle"})); // each change once
}

void TestNotebookSession::contextLanguageInMetadata()
{
    auto* kernel = new SessionKernel;
    NotebookSession* s = make(kernel);
    const auto language = [s] {
        return s->document()
            ->metadata()
            .value("language_info", nlohmann::json::object())
            .value("name", std::string());
    };
    QCOMPARE(language(), std::string("python"));
    QVERIFY(s->document()->metadata()["kernelspec"]["name"] == "python3");
    QSignalSpy changed(s, &NotebookSession::contextChanged);
    kernel->selectContext(ContextChoice{QStringLiteral("js-1"), QStringLiteral("javascript"), {}});
    QCOMPARE(changed.count(), 1);
    QCOMPARE(s->context().language, QString("javascript"));
    QCOMPARE(language(), std::string("javascript"));
}

void TestNotebookSession::templateAndSizeFromMetadata()
{
    NotebookSession* s = make();
    QCOMPARE(s->sandboxTemplate(), QString("interpreter")); // nothing known: the default
    QVERIFY(s->sandboxSize().isEmpty());
    nlohmann::json meta = s->document()->metadata();
    meta["lizard"]["template"] = "base";
    meta["lizard"]["size"] = "small";
    s->document()->setMetadata(meta);
    QCOMPARE(s->sandboxTemplate(), QString("base"));
    QCOMPARE(s->sandboxSize(), QString("small"));
}

void TestNotebookSession::restartInterruptAndClear()
{
    auto* kernel = new SessionKernel;
    NotebookSession* s = make(kernel);
    QSignalSpy notices(s, &NotebookSession::notice);
    s->restartKernel();
    QCOMPARE(kernel->restarts, 1);
    QCOMPARE(notices.count(), 2);
    QCOMPARE(notices.last().first().toString(), QString("Restarted: variables are gone"));
    kernel->restartError = QStringLiteral("the sandbox is paused");
    s->restartKernel();
    QCOMPARE(notices.last().first().toString(), QString("Restart failed: the sandbox is paused"));

    Cell* cell = s->document()->cell(0);
    cell->setSource(QStringLiteral("out:partial\nwait"));
    s->runQueue()->run(cell);
    QTRY_VERIFY(m_runner->waiting);
    s->interrupt();
    QTRY_COMPARE(cell->status(), CellStatus::Interrupted);
    QCOMPARE(m_runner->interrupts, 1);
    QVERIFY(!cell->outputs().empty());
    s->clearOutputs();
    QVERIFY(cell->outputs().empty());
}

QTEST_GUILESS_MAIN(TestNotebookSession)
#include "tst_notebooksession.moc"
