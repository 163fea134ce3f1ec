// Export of a notebook that ran against a real lizard-local: a matplotlib chart made in an
// `interpreter` sandbox ends up in the HTML as a data:image/png URI (a real PNG), the script
// has the code with `# %%` markers, and a write that fails says why and changes nothing.
#include "notebook/notebookdocument.h"
#include "notebook/runqueue.h"
#include "support/sandboxfixture.h"
#include "support/wait.h"
#include "ui/notebook/notebookcontroller.h"
#include "ui/notebook/notebooknavigator.h"
#include "ui/notebook/notebookpage.h"

#include <QImage>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace lizard;
using namespace lizard::notebook;
using namespace lizard::ui::notebook;

class TestNotebookExportLive : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void chartExportsToHtmlAndScript();

private:
    lizard::test::SandboxFixture m_fixture;
};

void TestNotebookExportLive::initTestCase()
{
    const QString why = m_fixture.start(QStringLiteral("interpreter"), 600000);
    QVERIFY2(why.isEmpty(), qPrintable(why));
}

void TestNotebookExportLive::cleanupTestCase()
{
    m_fixture.reportIfFailed();
    m_fixture.stop();
}

void TestNotebookExportLive::chartExportsToHtmlAndScript()
{
    std::unique_ptr<NotebookPage> page(
        NotebookController::createPage(&m_fixture.api(), m_fixture.sandboxId()));
    NotebookDocument* doc = page->document();
    doc->cell(0)->setSource("import matplotlib.pyplot as plt\n"
                            "fig = plt.figure(figsize=(4, 3), dpi=100)\n"
                            "plt.plot([1, 2, 3], [1, 4, 9])\n"
                            "plt.show()");
    doc->insertCell(0, CellType::Markdown, "# Squares\nA chart of *x²*.");
    Cell* chart = doc->cell(1);
    page->session()->runQueue()->run(chart);
    QVERIFY(lizard::test::waitUntil(
        [chart] {
            return chart->status() == CellStatus::Done || chart->status() == CellStatus::Error;
        },
        180000));
    QCOMPARE(chart->status(), CellStatus::Done);

    QTemporaryDir dir;
    const QString html = dir.filePath("squares.html");
    QVERIFY(!page->navigator()->exportTo(ExportFormat::Html, html));
    QFile file(html);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    const auto m =
        QRegularExpression("<img src=\"data:image/png;base64,([A-Za-z0-9+/=]+)\"").match(text);
    QVERIFY2(m.hasMatch(), qPrintable(text.left(3000)));
    const QByteArray png = QByteArray::fromBase64(m.captured(1).toLatin1());
    QVERIFY(png.startsWith("\x89PNG\r\n\x1a\n"));
    QImage image;
    QVERIFY(image.loadFromData(png, "PNG"));
    QVERIFY(image.width() >= 300 && image.height() >= 200);
    QVERIFY(text.contains(QRegularExpression("<h1[^>]*>.*Squares")));
    QVERIFY(text.contains("<span class=\"k\">import</span> matplotlib.pyplot"));

    const QString py = dir.filePath("squares.py");
    QVERIFY(!page->navigator()->exportTo(ExportFormat::PythonScript, py));
    QFile script(py);
    QVERIFY(script.open(QIODevice::ReadOnly));
    const QString code = QString::fromUtf8(script.readAll());
    QVERIFY2(code.contains("# %% [markdown]\n# # Squares\n# A chart of *x²*.\n\n# %%\nimport "
                           "matplotlib.pyplot as plt\n"
                           "fig = plt.figure(figsize=(4, 3), dpi=100)\n"),
             qPrintable(code));

    // Into a folder that is a file: the error names the path; the notebook is as it was.
    const bool dirty = doc->isDirty();
    const MaybeError error = page->navigator()->exportTo(ExportFormat::Html, py + "/inside.html");
    QVERIFY(error);
    QVERIFY2(error->message().contains(py), qPrintable(error->message()));
    QCOMPARE(doc->isDirty(), dirty);
    QCOMPARE(doc->cellCount(), 2);
    QVERIFY(!chart->outputs().empty());
    doc->setClean();
}

QTEST_MAIN(TestNotebookExportLive)
#include "tst_notebookexportlive.moc"
