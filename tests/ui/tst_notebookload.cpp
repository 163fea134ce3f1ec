// The notebook page under load: a cell printing 20 MB through the run queue (the path runner
// events take) keeps bounded memory, shows its head and tail, and "Show full output" pages
// through every byte; a page closed or destroyed while its autosave writes neither crashes nor
// leaves the wrong copy.

#include "notebook/recoverywatcher.h"
#include "notebook/runqueue.h"
#include "notebook/streamtext.h"
#include "ui/notebook/celllistwidget.h"
#include "ui/notebook/cellwidget.h"
#include "ui/notebook/fulloutputdialog.h"
#include "ui/notebook/notebookpage.h"
#include "ui/notebook/outputarea.h"
#include "ui/notebook/streamoutputview.h"

#include <QCryptographicHash>
#include <QDir>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QtTest>

using namespace lizard::notebook;
using namespace lizard::ui::notebook;

namespace {

// A runner whose events the test sends itself, as ClientCodeRunner would from the stream.
class FeedRunner : public CodeRunner
{
public:
    void run(const QString&, const QHash<QString, QString>&) override {}
    void interrupt() override { emit done(std::nullopt); }
};

} // namespace

class TestNotebookLoad : public QObject
{
    Q_OBJECT
private slots:
    void printTwentyMegabytes();
    void closedWhileAutosaving();
    void destroyedWhileAutosaving();

private:
    std::unique_ptr<NotebookPage> newPage(FeedRunner** runner)
    {
        *runner = new FeedRunner;
        auto page = std::make_unique<NotebookPage>("sbx-test", *runner, nullptr);
        page->resize(1000, 800);
        page->show();
        return page;
    }
    void makeBig(NotebookPage* page)
    {
        NotebookData nb;
        const std::string image(1 << 20, 'A');
        for (int i = 0; i < 20; ++i) {
            CellData c;
            c.source = "edit 0";
            RichOutput r;
            r.data = {{"image/svg+xml", "<svg xmlns='http://www.w3.org/2000/svg'/>"},
                      {"text/x-big", image}};
            c.outputs.push_back(r);
            nb.cells.push_back(c);
        }
        page->session()->file()->restore({}, nb);
    }
};

void TestNotebookLoad::printTwentyMegabytes()
{
    FeedRunner* runner = nullptr;
    auto page = newPage(&runner);
    Cell* cell = page->document()->cell(0);
    cell->setSource("print a lot");
    page->session()->runQueue()->run(cell);
    QCOMPARE(cell->status(), CellStatus::Running);
    QCryptographicHash hash(QCryptographicHash::Sha1);
    qint64 bytes = 0;
    qint64 lines = 0;
    qint64 peak = 0;
    while (bytes < (20 << 20)) {
        QString chunk;
        while (chunk.size() < 8192)
            chunk += QStringLiteral("line %1\n").arg(lines++);
        bytes += chunk.size();
        hash.addData(chunk.toUtf8());
        emit runner->streamReceived(StreamOutput{"stdout", chunk});
        peak = qMax(peak, cell->outputMemoryBytes());
        if (lines % 20000 < 1000)
            QCoreApplication::processEvents();
    }
    emit runner->done(1);
    QCOMPARE(cell->status(), CellStatus::Done);
    QVERIFY2(peak <= 2 * StreamOutput::spillThresholdChars + (1 << 20),
             qPrintable(QString::number(peak)));
    QVERIFY(cell->outputMemoryBytes() < 2 << 20);

    OutputArea* area = page->cells()->cellWidget(0)->outputs();
    auto* view = qobject_cast<StreamOutputView*>(area->view(0));
    QVERIFY(view);
    view->flushRender();
    QCOMPARE(view->lineCount(), lines);
    QCOMPARE(view->hiddenLines(), lines - 400);
    const QStringList shown = view->plainText().split('\n');
    QCOMPARE(shown.first(), QString("line 0"));
    QCOMPARE(shown.last(), QStringLiteral("line %1").arg(lines - 1));
    QVERIFY(QFile::exists(view->fullOutputFile()));
    auto* bar = view->findChild<QLabel*>();
    QVERIFY(bar->isVisible());
    QVERIFY(bar->text().contains("Show full output"));

    // A view made afresh for the spilled output (the notebook opened again) shows the same.
    OutputArea again(cell);
    auto* fresh = qobject_cast<StreamOutputView*>(again.view(0));
    fresh->flushRender();
    QCOMPARE(fresh->lineCount(), lines);
    QCOMPARE(fresh->plainText(), view->plainText());

    // Save… copies every byte.
    QTemporaryDir dir;
    QCOMPARE(view->saveTo(dir.filePath("out.txt")), QString());
    QFile saved(dir.filePath("out.txt"));
    QVERIFY(saved.open(QIODevice::ReadOnly));
    QCOMPARE(QCryptographicHash::hash(saved.readAll(), QCryptographicHash::Sha1), hash.result());

    // Show full output: pages of whole lines that add up to every byte, never all at once.
    FullOutputDialog* dialog = view->showFullOutput();
    QVERIFY(dialog && dialog->isVisible());
    QVERIFY(dialog->pageText().startsWith("line 0\nline 1\n"));
    QVERIFY(dialog->pageEnd() <= FullOutputDialog::defaultPageBytes);
    QCryptographicHash paged(QCryptographicHash::Sha1);
    int pages = 1;
    paged.addData(dialog->pageText().toUtf8());
    while (dialog->pageEnd() < dialog->totalBytes()) {
        const qint64 end = dialog->pageEnd();
        dialog->nextPage();
        QCOMPARE(dialog->pageStart(), end);
        QVERIFY(dialog->pageText().startsWith("line "));
        paged.addData(dialog->pageText().toUtf8());
        ++pages;
    }
    QCOMPARE(paged.result(), hash.result());
    QVERIFY(pages > 60);
    dialog->previousPage();
    QVERIFY(dialog->pageText().startsWith("line ") && dialog->pageText().endsWith('\n'));
    dialog->lastPage();
    QVERIFY(dialog->pageText().endsWith(QStringLiteral("line %1\n").arg(lines - 1)));
    QVERIFY(dialog->positionText().contains("of"));
    dialog->grab().save(dir.filePath("dialog.png"));
    if (!qEnvironmentVariableIsEmpty("LIZARD_TEST_SHOTS")) {
        dialog->grab().save(qEnvironmentVariable("LIZARD_TEST_SHOTS") + "/fulloutput.png");
        view->grab(QRect(0, bar->y() - 80, view->width(), bar->height() + 160))
            .save(qEnvironmentVariable("LIZARD_TEST_SHOTS") + "/spilled.png");
    }

    // Clearing the outputs lets the file go once the dialog is closed too.
    const QString spill = view->fullOutputFile();
    page->session()->clearOutputs();
    QVERIFY(QFile::exists(spill)); // the open dialog still reads it
    dialog->close();
    QTRY_VERIFY(!QFile::exists(spill));
    page->document()->setClean();
}

void TestNotebookLoad::closedWhileAutosaving()
{
    QTemporaryDir dir;
    const RecoveryStore store(dir.filePath("recovery"));
    FeedRunner* runner = nullptr;
    auto page = newPage(&runner);
    page->session()->enableRecovery(store, 1);
    makeBig(page.get());
    page->document()->cell(0)->setSource("edit 1");
    QTRY_VERIFY(page->session()->recoveryWatcher()->isWriting());
    // The user closes the notebook and discards the changes while the copy is being written.
    QTimer::singleShot(0, this, [] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        QVERIFY(box);
        box->button(QMessageBox::Discard)->click();
    });
    QVERIFY(page->confirmClose());
    page.reset();
    RecoveryWatcher::waitForIdle();
    QVERIFY(store.entries().empty());
    QVERIFY(QDir(store.directory()).entryList(QDir::Files).isEmpty());
}

void TestNotebookLoad::destroyedWhileAutosaving()
{
    QTemporaryDir dir;
    const RecoveryStore store(dir.filePath("recovery"));
    FeedRunner* runner = nullptr;
    auto page = newPage(&runner);
    page->session()->enableRecovery(store, 1);
    makeBig(page.get());
    page->document()->cell(0)->setSource("edit 1");
    QTRY_VERIFY(page->session()->recoveryWatcher()->isWriting());
    page->document()->cell(0)->setSource("edit 2");
    page.reset(); // the app ends without closing the page (a crash, a kill): no close()
    RecoveryWatcher::waitForIdle();
    const auto entries = store.entries();
    QCOMPARE(entries.size(), std::size_t(1));
    QCOMPARE(store.load(entries[0]).value().cells[0].source, QString("edit 2"));
}

QTEST_MAIN(TestNotebookLoad)
#include "tst_notebookload.moc"
