// notebook::ClientCodeRunner: the mapping of the runner's results to notebook outputs (offline),
// and a notebook's run queue running cells through it against a real lizard-local.
#include "notebook/clientcoderunner.h"
#include "notebook/notebookdocument.h"
#include "notebook/runqueue.h"
#include "tst_coderunsupport.h"

#include <QSignalSpy>

using namespace lizard;
using notebook::CellStatus;
using notebook::CellType;
using notebook::ClientCodeRunner;
using notebook::ErrorOutput;
using notebook::RichOutput;
using notebook::StreamOutput;

class TestCodeRunNotebook : public QObject
{
    Q_OBJECT

private slots:
    void richOutputKeepsEveryMime_data();
    void richOutputKeepsEveryMime();
    void errorOutputKeepsAnsiTraceback();

    void cellsRunThroughTheQueue();
    void kernelStateFollowsRuns();

private:
    bool ensureServer();
    lizard::test::CodeRunFixture m_fx;
    bool m_started = false;
};

void TestCodeRunNotebook::richOutputKeepsEveryMime_data()
{
    QTest::addColumn<QString>("mime");
    QTest::addColumn<QString>("data");
    QTest::addColumn<QByteArray>("expectedJson"); // how nbformat keeps the value
    QTest::newRow("png stays base64 text") << "image/png"
                                           << "iVBORw0KGgo=" << QByteArray("\"iVBORw0KGgo=\"");
    QTest::newRow("json becomes JSON") << "application/json"
                                       << "{\"a\": [1, 2]}" << QByteArray("{\"a\":[1,2]}");
    QTest::newRow("vega+json becomes JSON")
        << "application/vnd.vegalite.v5+json"
        << "{\"mark\": \"bar\"}" << QByteArray("{\"mark\":\"bar\"}");
    QTest::newRow("broken json stays text") << "application/json"
                                            << "{oops" << QByteArray("\"{oops\"");
    QTest::newRow("html") << "text/html"
                          << "<table></table>" << QByteArray("\"<table></table>\"");
}

void TestCodeRunNotebook::richOutputKeepsEveryMime()
{
    QFETCH(QString, mime);
    QFETCH(QString, data);
    QFETCH(QByteArray, expectedJson);
    client::ExecutionResult r;
    r.mime = mime;
    r.bundle = {{mime, data}, {"text/plain", "<repr>"}};
    r.metadata = {{"image/png", {{"width", 640}, {"height", 480}}}};
    r.isDisplay = false;
    r.executionCount = 7;
    const RichOutput out = ClientCodeRunner::toRichOutput(r);
    QCOMPARE(out.kind, RichOutput::Kind::ExecuteResult);
    QCOMPARE(out.executionCount, std::optional<int>(7));
    QCOMPARE(QByteArray::fromStdString(out.data[mime.toStdString()].dump()), expectedJson);
    QCOMPARE(out.text("text/plain"), QString("<repr>"));
    QCOMPARE(out.metadata["image/png"]["width"].get<int>(), 640);
}

void TestCodeRunNotebook::errorOutputKeepsAnsiTraceback()
{
    client::ExecutionError e{"ZeroDivisionError", "division by zero", "plain\nlines",
                             "\x1b[0;31mred\x1b[0m\nlines"};
    const ErrorOutput out = ClientCodeRunner::toErrorOutput(e);
    QCOMPARE(out.ename, QString("ZeroDivisionError"));
    QCOMPARE(out.evalue, QString("division by zero"));
    QCOMPARE(out.traceback, QStringList({"\x1b[0;31mred\x1b[0m", "lines"}));
    const ErrorOutput none = ClientCodeRunner::toErrorOutput({"TimeoutError", "timed out", {}, {}});
    QVERIFY(none.traceback.isEmpty());
}

bool TestCodeRunNotebook::ensureServer()
{
    if (!m_started) {
        const QString error = m_fx.start();
        if (!error.isEmpty()) {
            qWarning("%s", qPrintable(error));
            return false;
        }
        m_started = true;
    }
    return true;
}

void TestCodeRunNotebook::cellsRunThroughTheQueue()
{
    QVERIFY(ensureServer());
    auto interp = m_fx.interpreter(true);
    ClientCodeRunner runner(interp.get(), {}, "python");
    notebook::NotebookDocument doc;
    notebook::RunQueue queue(&doc, &runner);
    notebook::Cell* set = doc.insertCell(
        0, CellType::Code, "import pandas as pd; df = pd.DataFrame({'x': [1, 2, 3]})");
    notebook::Cell* sum = doc.insertCell(1, CellType::Code, "print('sum:'); df.x.sum()");
    notebook::Cell* table = doc.insertCell(2, CellType::Code, "df");
    notebook::Cell* shown =
        doc.insertCell(3, CellType::Code, "h = display('first', display_id=True)");
    notebook::Cell* update = doc.insertCell(4, CellType::Code, "h.update('second')");
    notebook::Cell* boom = doc.insertCell(5, CellType::Code, "1/0");
    queue.runAll();
    QTRY_VERIFY_WITH_TIMEOUT(!queue.isBusy(), 120000);
    QCOMPARE(set->status(), CellStatus::Done);
    QCOMPARE(sum->status(), CellStatus::Done);
    QCOMPARE(sum->executionCount(), std::optional<int>(2));
    QCOMPARE(sum->outputs().size(), size_t(2));
    QCOMPARE(std::get<StreamOutput>(sum->outputs().at(0)).text, QString("sum:\n"));
    QCOMPARE(std::get<RichOutput>(sum->outputs().at(1)).text("text/plain"), QString("6"));
    const RichOutput& html = std::get<RichOutput>(table->outputs().at(0));
    QVERIFY(html.text("text/html").contains("<table"));
    QVERIFY(html.has("text/plain"));
    // update_display_data from the next cell replaced what the first one shows.
    QCOMPARE(shown->outputs().size(), size_t(1));
    QCOMPARE(std::get<RichOutput>(shown->outputs().at(0)).text("text/plain"), QString("'second'"));
    QVERIFY(update->outputs().empty());
    QCOMPARE(boom->status(), CellStatus::Error);
    const ErrorOutput& err = std::get<ErrorOutput>(boom->outputs().at(0));
    QCOMPARE(err.ename, QString("ZeroDivisionError"));
    QVERIFY(err.traceback.join('\n').contains("\x1b["));
}

void TestCodeRunNotebook::kernelStateFollowsRuns()
{
    QVERIFY(ensureServer());
    auto interp = m_fx.interpreter(true);
    ClientCodeRunner runner(interp.get(), {}, "python");
    runner.setTimeout(2);
    QSignalSpy states(&runner, &ClientCodeRunner::kernelStateChanged);
    QSignalSpy done(&runner, &notebook::CodeRunner::done);
    QSignalSpy errors(&runner, &notebook::CodeRunner::errorReceived);
    runner.run("kept = 1\nwhile True: pass", {});
    QTRY_COMPARE_WITH_TIMEOUT(runner.kernelState(), client::KernelState::Busy, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 60000);
    QCOMPARE(errors.first().first().value<ErrorOutput>().ename, QString("TimeoutError"));
    QCOMPARE(runner.kernelState(), client::KernelState::Idle);
    QSignalSpy notices(&runner, &ClientCodeRunner::noticeReceived);
    runner.run("import os; os._exit(3)", {});
    QTRY_COMPARE_WITH_TIMEOUT(done.size(), 2, 60000);
    QCOMPARE(runner.kernelState(), client::KernelState::Dead);
    runner.run("kept", {});
    QTRY_COMPARE_WITH_TIMEOUT(done.size(), 3, 60000);
    QCOMPARE(notices.size(), 1);
    QCOMPARE(runner.kernelState(), client::KernelState::Idle);
    QVERIFY(states.size() >= 5); // busy, idle, busy, dead, busy, idle
}

QTEST_GUILESS_MAIN(TestCodeRunNotebook)
#include "tst_coderunnotebook.moc"
