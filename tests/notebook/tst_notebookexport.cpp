// Export to HTML (self-contained: inline CSS, images as data: URIs, markdown rendered, code
// highlighted, outputs escaped) and to a Python script (# %% markers, markdown as comments,
// magics and other languages as comments with a note); a failed write keeps the old file.
#include "notebook/exporthtml.h"
#include "notebook/notebookexport.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace lizard::notebook;

class TestNotebookExport : public QObject
{
    Q_OBJECT
private slots:
    void htmlIsSelfContained();
    void htmlEscapesAndHighlights();
    void markdownAttachmentsInline();
    void pythonScript();
    void otherLanguagesAreComments();
    void writesAndFailsCleanly();
};

namespace {
NotebookData sample()
{
    NotebookData data;
    data.metadata = {{"language_info", {{"name", "python"}}}};
    CellData md;
    md.type = CellType::Markdown;
    md.source = "# Results\nSome **bold** text.";
    data.cells.push_back(md);
    CellData code;
    code.source = "%matplotlib inline\nimport math  # the <module>\nx = \"a<b\"\nprint(x)";
    code.executionCount = 3;
    code.outputs.push_back(StreamOutput{"stdout", "a<b\n", std::nullopt});
    RichOutput chart;
    chart.data = {{"image/png", "iVBORw0KGgo=\n"}, {"text/plain", "<Figure size 400x300>"}};
    code.outputs.push_back(chart);
    RichOutput result;
    result.kind = RichOutput::Kind::ExecuteResult;
    result.executionCount = 3;
    result.data = {{"text/plain", "42"}};
    code.outputs.push_back(result);
    code.outputs.push_back(ErrorOutput{"ValueError", "bad", {"\x1b[31mValueError\x1b[0m: bad"}});
    data.cells.push_back(code);
    CellData raw;
    raw.type = CellType::Raw;
    raw.source = "raw text";
    data.cells.push_back(raw);
    return data;
}
} // namespace

void TestNotebookExport::htmlIsSelfContained()
{
    const QString html = exportHtml(sample(), "analysis.ipynb");
    QVERIFY(html.startsWith("<!DOCTYPE html>"));
    QVERIFY(html.contains("<style>"));
    QVERIFY(html.contains("<title>analysis.ipynb</title>"));
    // The image is in the file (whitespace of the base64 removed), nothing refers outside it.
    QVERIFY(html.contains("<img src=\"data:image/png;base64,iVBORw0KGgo=\""));
    QVERIFY(!html.contains("<link"));
    QVERIFY(!html.contains("<script"));
    QVERIFY(!html.contains(QRegularExpression("src=\"(?!data:)")));
    // Markdown rendered: a heading and bold, not the # and ** marks.
    QVERIFY(html.contains(QRegularExpression("<h1[^>]*>.*Results")));
    QVERIFY(html.contains(QRegularExpression("font-weight:\\s*(bold|700)[^>]*>bold<")));
    QVERIFY(!html.contains("**bold**"));
    QVERIFY(html.contains("In [3]:"));
    QVERIFY(html.contains("Out[3]:"));
    QVERIFY(html.contains("<pre>42</pre>"));
    QVERIFY(html.contains("raw text"));
}

void TestNotebookExport::htmlEscapesAndHighlights()
{
    const QString html = exportHtml(sample(), "a<b>.ipynb");
    QVERIFY(html.contains("<title>a&lt;b&gt;.ipynb</title>"));
    QVERIFY(html.contains("<pre class=\"stream stdout\">a&lt;b\n</pre>"));
    QVERIFY(html.contains("<span class=\"k\">import</span>"));
    QVERIFY(html.contains("<span class=\"c\"># the &lt;module&gt;</span>"));
    QVERIFY(html.contains("<span class=\"s\">&quot;a&lt;b&quot;</span>"));
    // The traceback without its colour codes.
    QVERIFY(html.contains("<pre class=\"error\">ValueError: bad\nValueError: bad</pre>"));
    QVERIFY(!html.contains(QChar(0x1b)));
    QCOMPARE(highlightCode("x = 1", "python"), QString("x = <span class=\"n\">1</span>"));
    QCOMPARE(highlightCode("if <x>", "bash"), QString("if &lt;x&gt;"));
}

void TestNotebookExport::markdownAttachmentsInline()
{
    const nlohmann::json attachments = {{"pic.png", {{"image/png", "AAAA"}}}};
    const QString html = markdownToHtml("![a picture](attachment:pic.png)", attachments);
    QVERIFY2(html.contains("src=\"data:image/png;base64,AAAA\""), qPrintable(html));
}

void TestNotebookExport::pythonScript()
{
    const QString py = exportPythonScript(sample(), "analysis.ipynb");
    QCOMPARE(
        py,
        QString("# analysis.ipynb, exported by lizard-desktop\n\n"
                "# %% [markdown]\n# # Results\n# Some **bold** text.\n\n"
                "# %%\n# %matplotlib inline\nimport math  # the <module>\nx = \"a<b\"\nprint(x)\n\n"
                "# %% [raw]\n# raw text\n"));
}

void TestNotebookExport::otherLanguagesAreComments()
{
    NotebookData data = sample();
    data.cells[1].source = "%%bash\necho hi";
    QString py = exportPythonScript(data, "n");
    QVERIFY2(
        py.contains(
            "# %%\n# Note: a %%bash cell, not Python; kept as a comment.\n# %%bash\n# echo hi\n"),
        qPrintable(py));
    data.metadata = {{"language_info", {{"name", "javascript"}}}};
    data.cells[1].source = "console.log(1)\n\nlet x = 2";
    QCOMPARE(notebookLanguage(data), QString("javascript"));
    py = exportPythonScript(data, "n");
    QVERIFY(py.contains("This notebook's code is javascript, not Python"));
    QVERIFY2(py.contains("# %%\n# Note: javascript code, not Python; kept as a comment.\n# "
                         "console.log(1)\n#\n# let x = 2\n"),
             qPrintable(py));
    // JavaScript is not highlighted as Python, only escaped.
    QVERIFY(
        exportHtml(data, "n").contains("<pre class=\"source\">console.log(1)\n\nlet x = 2</pre>"));
    QCOMPARE(notebookLanguage(NotebookData{}), QString("python"));
}

void TestNotebookExport::writesAndFailsCleanly()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("out.html");
    QVERIFY(!exportNotebook(sample(), "t", ExportFormat::Html, path));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.readAll().contains("data:image/png;base64,"));
    file.close();
    QVERIFY(!exportNotebook(sample(), "t", ExportFormat::PythonScript, dir.filePath("out.py")));
    // A folder that does not exist: an error that names the path.
    const QString bad = dir.filePath("missing/out.py");
    const MaybeError error = exportNotebook(sample(), "t", ExportFormat::PythonScript, bad);
    QVERIFY(error);
    QVERIFY2(error->message().contains(bad), qPrintable(error->message()));
    QVERIFY(!QFile::exists(bad));
}

QTEST_MAIN(TestNotebookExport)
#include "tst_notebookexport.moc"
