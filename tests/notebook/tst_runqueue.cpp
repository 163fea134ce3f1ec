// The run queue against a scripted runner: one cell at a time in order, statuses, outputs as
// they arrive, execution counts, stop-on-error, interrupt, markdown rendering, failures.

#include "notebook/runqueue.h"
#include "scriptedrunner.h"

#include <QSignalSpy>
#include <QTest>

using namespace lizard::notebook;
using lizard::notebook::test::ScriptedRunner;

namespace {

struct Fixture
{
    NotebookDocument doc;
    ScriptedRunner runner;
    RunQueue queue{&doc, &runner};

    explicit Fixture(const QList<QPair<CellType, QString>>& cells)
    {
        for (const auto& c : cells)
            doc.insertCell(doc.cellCount(), c.first, c.second);
    }
    Cell* cell(int i) const { return doc.cell(i); }
};

QString streamText(const Cell* c, int index)
{
    return std::get<StreamOutput>(c->outputs().at(std::size_t(index))).text;
}

QList<CellStatus> statuses(const QSignalSpy& spy)
{
    QList<CellStatus> out;
    for (const QList<QVariant>& args : spy)
        out << args.at(0).value<CellStatus>();
    return out;
}

} // namespace

class TestRunQueue : public QObject
{
    Q_OBJECT
private slots:
    void runsOneAtATimeInOrder_data();
    void runsOneAtATimeInOrder();
    void outputsArriveAsTheyCome();
    void displayUpdatesReplaceEveryOutputWithTheirId();
    void errorStopsTheQueue();
    void interruptStopsRunningAndClearsQueue();
    void interruptedCellCanBeQueuedAgainAtOnce();
    void markdownRendersWithoutRunner();
    void runnerFailureIsAnError();
    void queuedCellRemovedIsSkipped();
    void rerunClearsOldOutputsAndIgnoresDuplicates();
};

void TestRunQueue::runsOneAtATimeInOrder_data()
{
    QTest::addColumn<bool>("sync");
    QTest::newRow("runner answers later") << false;
    QTest::newRow("runner answers inside run()") << true;
}

void TestRunQueue::runsOneAtATimeInOrder()
{
    QFETCH(bool, sync);
    Fixture f({{CellType::Code, "out:a"}, {CellType::Code, "out:b"}, {CellType::Code, "out:c"}});
    f.runner.sync = sync;
    f.queue.setEnvironment({{"TOKEN", "t1"}});
    QSignalSpy busy(&f.queue, &RunQueue::busyChanged);
    QSignalSpy second(f.cell(1), &Cell::statusChanged);
    QSignalSpy count(f.cell(1), &Cell::executionCountChanged);

    f.queue.runAll();
    QTRY_VERIFY(!f.queue.isBusy());
    QCOMPARE(f.runner.calls, (QStringList{"out:a", "out:b", "out:c"}));
    QCOMPARE(f.runner.maxActive, 1);
    QCOMPARE(f.runner.envsSeen.at(2).value("TOKEN"), QString("t1"));
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(f.cell(i)->status(), CellStatus::Done);
        QCOMPARE(f.cell(i)->executionCount(), std::optional<int>(i + 1));
        QCOMPARE(streamText(f.cell(i), 0), QString(QChar('a' + i)) + '\n');
    }
    QCOMPARE(statuses(second),
             (QList<CellStatus>{CellStatus::Queued, CellStatus::Running, CellStatus::Done}));
    QCOMPARE(count.size(), 1);
    QCOMPARE(busy.size(), 2);
    QCOMPARE(busy.at(0).at(0).toBool(), true);
    QCOMPARE(busy.at(1).at(0).toBool(), false);
    QVERIFY(f.doc.isDirty()); // outputs and counts are saved with the notebook
}

void TestRunQueue::displayUpdatesReplaceEveryOutputWithTheirId()
{
    // A display made in one cell (twice, like a progress bar shown in two places) and
    // updated from the next; another display id is left alone.
    Fixture f({{CellType::Code, "display:bar:text/plain=0%\ndisplay:other:text/plain=keep\nout:x\n"
                                "display:bar:text/plain=0%"},
               {CellType::Code, "update:bar:text/plain=100%\nupdate:nobody:text/plain=lost"}});
    Cell* first = f.cell(0);
    Cell* second = f.cell(1);
    f.queue.run(first);
    QTRY_COMPARE(first->status(), CellStatus::Done);
    QSignalSpy changed(first, &Cell::outputChanged);
    f.queue.run(second);
    QTRY_COMPARE(second->status(), CellStatus::Done);
    QCOMPARE(first->outputs().size(), std::size_t(4));
    QCOMPARE(std::get<RichOutput>(first->outputs()[0]).text("text/plain"), QString("100%"));
    QCOMPARE(std::get<RichOutput>(first->outputs()[1]).text("text/plain"), QString("keep"));
    QCOMPARE(std::get<RichOutput>(first->outputs()[3]).text("text/plain"), QString("100%"));
    QCOMPARE(std::get<RichOutput>(first->outputs()[3]).kind, RichOutput::Kind::DisplayData);
    QCOMPARE(changed.size(), 2);
    QCOMPARE(changed.at(0).at(0).toInt(), 0);
    QCOMPARE(changed.at(1).at(0).toInt(), 3);
    QVERIFY(second->outputs().empty()); // an update shows nothing where it ran
}

void TestRunQueue::outputsArriveAsTheyCome()
{
    Fixture f({{CellType::Code, "out:1\nout:2\nerr:warn\nresult:text/plain=42\nwait\nout:3"}});
    Cell* c = f.cell(0);
    QSignalSpy added(c, &Cell::outputAdded);
    QSignalSpy changed(c, &Cell::outputChanged);
    f.queue.run(c);
    QCOMPARE(c->status(), CellStatus::Running);
    QTRY_VERIFY(f.runner.waiting);
    // Before the run ends: merged stdout, stderr, the result.
    QCOMPARE(c->outputs().size(), std::size_t(3));
    QCOMPARE(streamText(c, 0), QString("1\n2\n"));
    QCOMPARE(streamText(c, 1), QString("warn\n"));
    QCOMPARE(std::get<RichOutput>(c->outputs()[2]).text("text/plain"), QString("42"));
    QCOMPARE(added.size(), 3);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(c->status(), CellStatus::Running);
    QCOMPARE(c->executionCount(), std::nullopt);

    f.runner.release();
    QTRY_COMPARE(c->status(), CellStatus::Done);
    QCOMPARE(c->outputs().size(), std::size_t(4));
    QCOMPARE(streamText(c, 3), QString("3\n"));
    QCOMPARE(added.at(3).at(0).toInt(), 3);
    QCOMPARE(c->executionCount(), std::optional<int>(1));
    // The result learns its Out[n] when the run is done.
    QCOMPARE(std::get<RichOutput>(c->outputs()[2]).executionCount, std::optional<int>(1));
    QCOMPARE(changed.size(), 2);
    QCOMPARE(changed.at(1).at(0).toInt(), 2);
}

void TestRunQueue::errorStopsTheQueue()
{
    Fixture f({{CellType::Code, "out:ok"},
               {CellType::Code, "out:before\nraise:ValueError:bad"},
               {CellType::Code, "out:never"},
               {CellType::Code, "out:never either"}});
    f.queue.runAll();
    QTRY_VERIFY(!f.queue.isBusy());
    QCOMPARE(f.runner.calls.size(), 2);
    QCOMPARE(f.cell(0)->status(), CellStatus::Done);
    QCOMPARE(f.cell(1)->status(), CellStatus::Error);
    QCOMPARE(f.cell(1)->executionCount(), std::optional<int>(2));
    const auto& error = std::get<ErrorOutput>(f.cell(1)->outputs().at(1));
    QCOMPARE(error.ename, QString("ValueError"));
    QCOMPARE(error.evalue, QString("bad"));
    QVERIFY(error.traceback.at(0).contains("\x1b[0;31m"));
    QCOMPARE(f.cell(2)->status(), CellStatus::Idle);
    QCOMPARE(f.cell(3)->status(), CellStatus::Idle);
    QVERIFY(f.cell(2)->outputs().empty());

    // The queue works again afterwards.
    f.queue.run(f.cell(2));
    QTRY_COMPARE(f.cell(2)->status(), CellStatus::Done);
    QCOMPARE(f.cell(2)->executionCount(), std::optional<int>(3));
}

void TestRunQueue::interruptStopsRunningAndClearsQueue()
{
    Fixture f({{CellType::Code, "out:started\nwait\nout:not printed"},
               {CellType::Code, "out:b"},
               {CellType::Code, "out:c"}});
    QSignalSpy first(f.cell(0), &Cell::statusChanged);
    f.queue.runAll();
    QTRY_VERIFY(f.runner.waiting);
    QCOMPARE(f.cell(0)->status(), CellStatus::Running);
    QCOMPARE(f.cell(1)->status(), CellStatus::Queued);
    QCOMPARE(f.queue.queuedCount(), 2);
    QCOMPARE(f.queue.currentCell(), f.cell(0));

    f.queue.interrupt();
    QCOMPARE(f.runner.interrupts, 1);
    QCOMPARE(f.cell(0)->status(), CellStatus::Interrupted);
    QCOMPARE(f.cell(1)->status(), CellStatus::Idle);
    QCOMPARE(f.cell(2)->status(), CellStatus::Idle);
    QCOMPARE(f.queue.queuedCount(), 0);
    f.queue.interrupt(); // a second press does not bother the runner again
    QCOMPARE(f.runner.interrupts, 1);

    // The runner still ends the run; its KeyboardInterrupt lands in the cell, which stays
    // interrupted.
    QTRY_VERIFY(!f.queue.isBusy());
    QCOMPARE(f.runner.calls.size(), 1);
    QCOMPARE(f.cell(0)->status(), CellStatus::Interrupted);
    QCOMPARE(statuses(first),
             (QList<CellStatus>{CellStatus::Queued, CellStatus::Running, CellStatus::Interrupted}));
    QCOMPARE(f.cell(0)->outputs().size(), std::size_t(2));
    QCOMPARE(streamText(f.cell(0), 0), QString("started\n"));
    QCOMPARE(std::get<ErrorOutput>(f.cell(0)->outputs()[1]).ename, QString("KeyboardInterrupt"));
    QCOMPARE(f.cell(0)->executionCount(), std::optional<int>(1));
    QCOMPARE(f.runner.maxActive, 1);
}

void TestRunQueue::interruptedCellCanBeQueuedAgainAtOnce()
{
    Fixture f({{CellType::Code, "wait\nout:x"}});
    Cell* c = f.cell(0);
    f.queue.run(c);
    QTRY_VERIFY(f.runner.waiting);
    f.queue.interrupt();
    f.queue.run(c); // before the runner has reported the end of the interrupted run
    QCOMPARE(c->status(), CellStatus::Queued);
    QCOMPARE(f.runner.calls.size(), 1);
    QTRY_COMPARE(f.runner.calls.size(), 2); // started once the old run was done
    QCOMPARE(f.runner.maxActive, 1);
    QTRY_VERIFY(f.runner.waiting);
    QCOMPARE(c->status(), CellStatus::Running);
    QVERIFY(c->outputs().empty()); // the KeyboardInterrupt of the old run was cleared
    f.runner.release();
    QTRY_COMPARE(c->status(), CellStatus::Done);
    QCOMPARE(c->executionCount(), std::optional<int>(2));
}

void TestRunQueue::markdownRendersWithoutRunner()
{
    Fixture f({{CellType::Markdown, "# Title"}, {CellType::Code, "out:x"}, {CellType::Raw, "raw"}});
    f.queue.run(f.cell(0));
    QCOMPARE(f.cell(0)->status(), CellStatus::Done);
    QVERIFY(!f.queue.isBusy());
    f.queue.runAll();
    QTRY_VERIFY(!f.queue.isBusy());
    QCOMPARE(f.runner.calls, QStringList{"out:x"});
    QCOMPARE(f.cell(2)->status(), CellStatus::Done);
    QVERIFY(f.cell(0)->outputs().empty());

    // A queued code cell turned into markdown before its turn is rendered, not run.
    Fixture g({{CellType::Code, "wait"}, {CellType::Code, "out:y"}});
    g.queue.runAll();
    QTRY_VERIFY(g.runner.waiting);
    g.cell(1)->setType(CellType::Markdown);
    g.runner.release();
    QTRY_VERIFY(!g.queue.isBusy());
    QCOMPARE(g.runner.calls, QStringList{"wait"});
    QCOMPARE(g.cell(1)->status(), CellStatus::Done);
}

void TestRunQueue::runnerFailureIsAnError()
{
    Fixture f({{CellType::Code, "out:partial\nfail:connection to the sandbox lost"},
               {CellType::Code, "out:b"}});
    f.queue.runAll();
    QTRY_VERIFY(!f.queue.isBusy());
    QCOMPARE(f.cell(0)->status(), CellStatus::Error);
    QCOMPARE(f.cell(0)->outputs().size(), std::size_t(2));
    const auto& error = std::get<ErrorOutput>(f.cell(0)->outputs()[1]);
    QCOMPARE(error.evalue, QString("connection to the sandbox lost"));
    QCOMPARE(f.cell(0)->executionCount(), std::nullopt);
    QCOMPARE(f.cell(1)->status(), CellStatus::Idle);
    QCOMPARE(f.runner.calls.size(), 1);
}

void TestRunQueue::queuedCellRemovedIsSkipped()
{
    Fixture f({{CellType::Code, "wait"}, {CellType::Code, "out:b"}, {CellType::Code, "out:c"}});
    f.queue.runAll();
    QTRY_VERIFY(f.runner.waiting);
    Cell* b = f.cell(1);
    QVERIFY(f.doc.removeCell(1));
    QCOMPARE(b->status(), CellStatus::Idle);
    QCOMPARE(f.queue.queuedCount(), 1);
    // A running cell that is deleted keeps its run; undo brings it back with the outputs.
    Cell* a = f.cell(0);
    QVERIFY(f.doc.removeCell(0));
    f.runner.release();
    QTRY_VERIFY(!f.queue.isBusy());
    QCOMPARE(f.runner.calls, (QStringList{"wait", "out:c"}));
    QCOMPARE(a->status(), CellStatus::Done);
    QCOMPARE(f.doc.undoRemove(), a);
    QCOMPARE(a->executionCount(), std::optional<int>(1));
    // Cells outside the document are not run.
    QCOMPARE(f.doc.undoRemove(), b);
    QVERIFY(f.doc.removeCell(0));
    f.queue.run(a);
    QVERIFY(!f.queue.isBusy());
}

void TestRunQueue::rerunClearsOldOutputsAndIgnoresDuplicates()
{
    Fixture f({{CellType::Code, "wait\nout:x"}});
    Cell* c = f.cell(0);
    f.queue.run(c);
    f.queue.run(c); // already running: ignored
    QTRY_VERIFY(f.runner.waiting);
    f.runner.release();
    QTRY_COMPARE(c->status(), CellStatus::Done);
    QCOMPARE(c->outputs().size(), std::size_t(1));
    QSignalSpy cleared(c, &Cell::outputsCleared);
    f.queue.run(c);
    QCOMPARE(cleared.size(), 1);
    QVERIFY(c->outputs().empty());
    QTRY_VERIFY(f.runner.waiting);
    f.runner.release();
    QTRY_COMPARE(c->status(), CellStatus::Done);
    QCOMPARE(c->outputs().size(), std::size_t(1));
    QCOMPARE(c->executionCount(), std::optional<int>(2));
    QCOMPARE(f.runner.calls.size(), 2);
}

QTEST_GUILESS_MAIN(TestRunQueue)
#include "tst_runqueue.moc"
