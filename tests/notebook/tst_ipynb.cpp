// .ipynb reading and writing: round trips, files checked by Jupyter's own nbformat validator,
// files written by nbformat opened with every output, and precise messages for broken files.

#include "nbformatpython.h"
#include "notebook/ipynbreader.h"
#include "notebook/ipynbwriter.h"
#include "notebook/notebookdocument.h"

#include <QTemporaryDir>
#include <QTest>

using namespace lizard::notebook;
using namespace lizard::notebook::test;

namespace {

// A 1x1 PNG, base64.
const char* const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+"
                        "M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

NotebookData fullNotebook()
{
    NotebookData nb;
    nb.metadata = {
        {"kernelspec", {{"name", "python3"}, {"display_name", "Python 3"}, {"language", "python"}}},
        {"language_info",
         {{"name", "python"}, {"version", "3.11.2"}, {"mimetype", "text/x-python"}}},
        {"lizard", {{"sandbox", "sbx-123"}, {"nested", {1, 2, {{"deep", true}}}}}},
    };
    CellData md;
    md.id = "intro";
    md.type = CellType::Markdown;
    md.source = "# Title\n\n![img](attachment:a.png)";
    md.attachments = {{"a.png", {{"image/png", png}}}};
    md.metadata = {{"editable", false}, {"unknown_tool", {{"x", 1}}}};
    nb.cells.push_back(md);

    CellData code;
    code.id = "code-1";
    code.source = "import sys\nprint('hi')\nsys.stderr.write('w')\n1/0";
    code.executionCount = 12;
    code.metadata = {{"tags", {"slow"}}, {"collapsed", false}};
    code.outputs.push_back(StreamOutput{"stdout", "hi\nthere\n"});
    code.outputs.push_back(StreamOutput{"stderr", "w"});
    code.outputs.push_back(RichOutput{RichOutput::Kind::ExecuteResult,
                                      {{"text/plain", "{'a': 1}\nsecond line"},
                                       {"text/html", "<table>\n<tr></tr>\n</table>"},
                                       {"application/json", {{"a", 1}}}},
                                      {{"isolated", true}},
                                      12});
    code.outputs.push_back(RichOutput{RichOutput::Kind::DisplayData,
                                      {{"image/png", png}, {"text/plain", "<Figure size 1x1>"}},
                                      {{"image/png", {{"width", 1}, {"height", 1}}}},
                                      std::nullopt});
    code.outputs.push_back(ErrorOutput{
        "ZeroDivisionError",
        "division by zero",
        {"\x1b[0;31m-----\x1b[0m", "\x1b[0;31mZeroDivisionError\x1b[0m: division by zero"}});
    nb.cells.push_back(code);

    CellData unrun;
    unrun.id = "code-2";
    unrun.source = "";
    nb.cells.push_back(unrun);

    CellData raw;
    raw.id = "raw_1";
    raw.type = CellType::Raw;
    raw.source = "raw text\nunchanged";
    raw.metadata = {{"format", "text/x-rst"}};
    nb.cells.push_back(raw);
    return nb;
}

} // namespace

class TestIpynb : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void roundTrip();
    void writesJupyterLayout();
    void writtenFilesPassNbformatValidation();
    void opensFilesWrittenByNbformat();
    void acceptsMultilineArraysAndOlderMinors();
    void acceptsDeepButSaneNesting();
    void brokenInput_data();
    void brokenInput();

private:
    QTemporaryDir m_dir;
};

void TestIpynb::initTestCase()
{
    QVERIFY(m_dir.isValid());
}

void TestIpynb::roundTrip()
{
    const NotebookData nb = fullNotebook();
    const Expected<NotebookData> back = IpynbReader::parse(IpynbWriter::serialize(nb), "x.ipynb");
    QVERIFY2(back.ok(), back.ok() ? "" : qPrintable(back.error().message()));
    QVERIFY(back.value().metadata == nb.metadata);
    QCOMPARE(back.value().cells.size(), nb.cells.size());
    for (std::size_t i = 0; i < nb.cells.size(); ++i)
        QVERIFY2(back.value().cells[i] == nb.cells[i], qPrintable(QString::number(i)));

    // Through a live document and back: identical data.
    NotebookDocument doc;
    doc.reset(back.value());
    QVERIFY(doc.toData() == nb);
}

void TestIpynb::writesJupyterLayout()
{
    const nlohmann::json j = IpynbWriter::toJson(fullNotebook());
    QCOMPARE(j["nbformat"].get<int>(), 4);
    QCOMPARE(j["nbformat_minor"].get<int>(), 5);
    const nlohmann::json& code = j["cells"][1];
    QCOMPARE(code["id"].get<std::string>(), std::string("code-1"));
    QVERIFY(code["source"] ==
            nlohmann::json({"import sys\n", "print('hi')\n", "sys.stderr.write('w')\n", "1/0"}));
    // Base64 images stay one string; text is split into lines as Jupyter does.
    QVERIFY(code["outputs"][3]["data"]["image/png"].is_string());
    QVERIFY(code["outputs"][2]["data"]["text/html"].is_array());
    QVERIFY(code["outputs"][2]["data"]["application/json"].is_object());
    QCOMPARE(code["outputs"][2]["execution_count"].get<int>(), 12);
    QVERIFY(!code["outputs"][3].contains("execution_count")); // display_data has none
    QVERIFY(j["cells"][2]["execution_count"].is_null());
    QVERIFY(j["cells"][0].contains("attachments"));
    QVERIFY(!j["cells"][0].contains("outputs"));
    QVERIFY(IpynbWriter::serialize(fullNotebook()).endsWith("}\n"));
}

void TestIpynb::writtenFilesPassNbformatValidation()
{
    if (nbformatPython().isEmpty())
        QSKIP("python3 with nbformat is not installed (apt install python3-nbformat)");
    const QString full = m_dir.filePath("full.ipynb");
    QVERIFY(!IpynbWriter::writeFile(full, fullNotebook()));
    PythonRun run = validateWithNbformat(full);
    QVERIFY2(run.ok, qPrintable(run.output));

    // A notebook made in the app: generated ids, an empty notebook too.
    NotebookDocument doc;
    doc.insertCell(0, CellType::Code, "x = 1")->appendOutput(StreamOutput{"stdout", "1\n"});
    doc.insertCell(1, CellType::Markdown, "*hi*");
    const QString made = m_dir.filePath("made.ipynb");
    QVERIFY(!IpynbWriter::writeFile(made, doc.toData()));
    run = validateWithNbformat(made);
    QVERIFY2(run.ok, qPrintable(run.output));
    const QString empty = m_dir.filePath("empty.ipynb");
    QVERIFY(!IpynbWriter::writeFile(empty, NotebookData{}));
    run = validateWithNbformat(empty);
    QVERIFY2(run.ok, qPrintable(run.output));
}

void TestIpynb::opensFilesWrittenByNbformat()
{
    if (nbformatPython().isEmpty())
        QSKIP("python3 with nbformat is not installed (apt install python3-nbformat)");
    const QString theirs = m_dir.filePath("theirs.ipynb");
    const QString ours = m_dir.filePath("ours.ipynb");
    const QString make = QString::fromUtf8(R"py(
import sys, nbformat
from nbformat.v4 import new_notebook, new_code_cell, new_markdown_cell, new_raw_cell, new_output
png = sys.argv[2]
nb = new_notebook(metadata={
    "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
    "language_info": {"name": "python", "version": "3.11.2"},
    "some_extension": {"keep": [1, 2, 3]}})
nb.cells.append(new_markdown_cell("Look: ![p](attachment:p.png)",
                                  attachments={"p.png": {"image/png": png}}))
nb.cells.append(new_code_cell("print('hello')\nprint('world')\n6*7\nplot()\n1/0", execution_count=3,
    metadata={"tags": ["demo"], "jupyter": {"source_hidden": False}},
    outputs=[
        new_output("stream", name="stdout", text="hello\nworld\n"),
        new_output("execute_result", data={"text/plain": "42", "text/html": "<b>42</b>\n<i>!</i>"},
                   execution_count=3),
        new_output("display_data", data={"image/png": png, "text/plain": "<Figure size 640x480>"},
                   metadata={"image/png": {"width": 640, "height": 480}}),
        new_output("error", ename="ZeroDivisionError", evalue="division by zero",
                   traceback=["\x1b[0;31m---------\x1b[0m",
                              "\x1b[0;31mZeroDivisionError\x1b[0m: division by zero"]),
    ]))
nb.cells.append(new_raw_cell("raw"))
nbformat.validate(nb)
nbformat.write(nb, sys.argv[1])
)py");
    PythonRun run = runPython(make, {theirs, QString::fromLatin1(png)});
    QVERIFY2(run.ok, qPrintable(run.output));

    const Expected<NotebookData> read = IpynbReader::readFile(theirs);
    QVERIFY2(read.ok(), read.ok() ? "" : qPrintable(read.error().message()));
    const NotebookData& nb = read.value();
    QVERIFY(nb.metadata["some_extension"]["keep"] == nlohmann::json({1, 2, 3}));
    QVERIFY(nb.metadata["kernelspec"]["name"] == "python3");
    QCOMPARE(nb.cells.size(), std::size_t(3));
    QCOMPARE(nb.cells[0].type, CellType::Markdown);
    QVERIFY(nb.cells[0].attachments["p.png"]["image/png"] == png);
    const CellData& code = nb.cells[1];
    QVERIFY(isValidCellId(code.id));
    QCOMPARE(code.source, QString("print('hello')\nprint('world')\n6*7\nplot()\n1/0"));
    QCOMPARE(code.executionCount, std::optional<int>(3));
    QVERIFY(code.metadata["tags"][0] == "demo");
    QCOMPARE(code.outputs.size(), std::size_t(4));
    QCOMPARE(std::get<StreamOutput>(code.outputs[0]), (StreamOutput{"stdout", "hello\nworld\n"}));
    const auto& result = std::get<RichOutput>(code.outputs[1]);
    QCOMPARE(result.kind, RichOutput::Kind::ExecuteResult);
    QCOMPARE(result.text("text/html"), QString("<b>42</b>\n<i>!</i>"));
    QCOMPARE(result.executionCount, std::optional<int>(3));
    const auto& display = std::get<RichOutput>(code.outputs[2]);
    QCOMPARE(display.kind, RichOutput::Kind::DisplayData);
    QCOMPARE(display.text("image/png"), QString::fromLatin1(png));
    QVERIFY(display.metadata["image/png"]["width"] == 640);
    const auto& error = std::get<ErrorOutput>(code.outputs[3]);
    QCOMPARE(error.ename, QString("ZeroDivisionError"));
    QCOMPARE(error.traceback.size(), 2);
    QVERIFY(error.traceback[1].startsWith("\x1b[0;31mZeroDivisionError"));
    QCOMPARE(nb.cells[2].type, CellType::Raw);

    // Written back by us, Jupyter sees the very same notebook.
    NotebookDocument doc;
    doc.reset(nb);
    QVERIFY(!IpynbWriter::writeFile(ours, doc.toData()));
    run = runPython(QStringLiteral("import sys, nbformat\n"
                                   "a = nbformat.read(sys.argv[1], as_version=4)\n"
                                   "b = nbformat.read(sys.argv[2], as_version=4)\n"
                                   "nbformat.validate(b)\n"
                                   "assert a == b, (a, b)\n"),
                    {theirs, ours});
    QVERIFY2(run.ok, qPrintable(run.output));
}

void TestIpynb::acceptsDeepButSaneNesting()
{
    // Brackets inside strings do not count as nesting.
    const QByteArray bytes =
        R"({"nbformat": 4, "nbformat_minor": 5, "cells": [], "metadata": {"x": )" +
        QByteArray(400, '[') + R"("[[[[{{{{\"[[")" + QByteArray(400, ']') + "}}";
    const Expected<NotebookData> read = IpynbReader::parse(bytes, "deep.ipynb");
    QVERIFY2(read.ok(), read.ok() ? "" : qPrintable(read.error().message()));
    const Expected<NotebookData> again =
        IpynbReader::parse(IpynbWriter::serialize(read.value()), "deep.ipynb");
    QVERIFY(again.ok());
    QVERIFY(again.value().metadata == read.value().metadata);
}

void TestIpynb::acceptsMultilineArraysAndOlderMinors()
{
    const QByteArray old = R"({
 "nbformat": 4, "nbformat_minor": 2, "metadata": {},
 "cells": [{"cell_type": "code", "execution_count": null, "metadata": {},
   "source": ["a = 1\n", "b = 2"],
   "outputs": [{"output_type": "display_data", "metadata": {},
     "data": {"image/png": ["iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwAD\n",
                             "hgGAWjR9awAAAABJRU5ErkJggg==\n"],
              "text/plain": ["<Figure>"],
              "application/vnd.custom+json": ["kept", "as", "json"]}}]}]
})";
    const Expected<NotebookData> read = IpynbReader::parse(old, "old.ipynb");
    QVERIFY2(read.ok(), read.ok() ? "" : qPrintable(read.error().message()));
    const CellData& cell = read.value().cells.at(0);
    QVERIFY(cell.id.isEmpty()); // 4.2 has no ids; the document gives them
    QCOMPARE(cell.source, QString("a = 1\nb = 2"));
    const auto& r = std::get<RichOutput>(cell.outputs.at(0));
    QCOMPARE(r.text("image/png"), QString::fromLatin1(png).insert(68, '\n') + '\n');
    QVERIFY(r.data["application/vnd.custom+json"] == nlohmann::json({"kept", "as", "json"}));
    NotebookDocument doc;
    doc.reset(read.value());
    QVERIFY(isValidCellId(doc.cell(0)->id()));
    const nlohmann::json written = IpynbWriter::toJson(doc.toData());
    QCOMPARE(written["nbformat_minor"].get<int>(), 5);
    QVERIFY(written["cells"][0]["id"].is_string());
}

void TestIpynb::brokenInput_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("where");
    QTest::addColumn<QString>("what");
    const QByteArray good = IpynbWriter::serialize(fullNotebook());
    auto cell = [](const QByteArray& c) {
        return R"({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [)" + c + "]}";
    };
    auto output = [&](const QByteArray& o) {
        return cell(R"({"cell_type": "code", "source": "", "metadata": {}, "execution_count": 1,
                       "outputs": [)" +
                    o + "]}");
    };
    QTest::newRow("not JSON") << QByteArray("hello") << "line 1, column 1"
                              << "not valid JSON";
    QTest::newRow("bad JSON on line 3") << QByteArray("{\n \"cells\": [\n  }\n") << "line 3"
                                        << "not valid JSON";
    QTest::newRow("truncated") << good.left(good.size() / 2) << "line "
                               << "truncated";
    QTest::newRow("empty") << QByteArray("  \n") << ""
                           << "empty";
    QTest::newRow("invalid UTF-8") << QByteArray("{\"cells\": \"\xff\xfe\"}") << "line 1"
                                   << "not valid JSON";
    QTest::newRow("nested a million deep")
        << R"({"nbformat": 4, "metadata": {"x": )" + QByteArray(1000000, '[') +
               QByteArray(1000000, ']') + "}}"
        << "line 1, column "
        << "nested deeper than 512 levels";
    QTest::newRow("a list") << QByteArray("[1, 2]") << ""
                            << "expected a notebook";
    QTest::newRow("no nbformat") << QByteArray(R"({"cells": []})") << "top level"
                                 << "\"nbformat\" is missing";
    QTest::newRow("nbformat 3")
        << QByteArray(R"({"nbformat": 3, "nbformat_minor": 0, "metadata": {}, "worksheets": []})")
        << "nbformat"
        << "nbformat 3 is not supported";
    QTest::newRow("nbformat as text")
        << QByteArray(R"({"nbformat": "4", "cells": []})") << "nbformat"
        << "expected an integer or null, found a string";
    QTest::newRow("cells not a list")
        << QByteArray(R"({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": {}})")
        << "cells"
        << "expected a list, found an object";
    QTest::newRow("metadata a list")
        << QByteArray(R"({"nbformat": 4, "nbformat_minor": 5, "metadata": [], "cells": []})")
        << "metadata"
        << "expected an object, found a list";
    QTest::newRow("cell not an object") << cell("3") << "cells[0]"
                                        << "expected an object";
    QTest::newRow("unknown cell type")
        << cell(R"({"cell_type": "graph", "source": ""})") << "cells[0].cell_type"
        << "unknown cell type \"graph\"";
    QTest::newRow("source a number")
        << cell(R"({"cell_type": "code", "source": 5})") << "cells[0].source"
        << "found the integer 5";
    QTest::newRow("source list with a number")
        << cell(R"({"cell_type": "markdown", "source": ["a", 1]})") << "cells[0].source[1]"
        << "expected a string";
    QTest::newRow("execution count text")
        << cell(R"({"cell_type": "code", "source": "", "execution_count": "1", "outputs": []})")
        << "cells[0].execution_count"
        << "expected an integer or null";
    QTest::newRow("unknown output type")
        << output(R"({"output_type": "pyout"})") << "cells[0].outputs[0].output_type"
        << "unknown output type \"pyout\"";
    QTest::newRow("stream without text")
        << output(R"({"output_type": "stream", "name": "stdout"})") << "cells[0].outputs[0]"
        << "\"text\" is missing";
    QTest::newRow("traceback not a list")
        << output(R"({"output_type": "error", "ename": "E", "evalue": "", "traceback": "x"})")
        << "cells[0].outputs[0].traceback"
        << "expected a list";
    QTest::newRow("mime value a number")
        << output(R"({"output_type": "display_data", "metadata": {}, "data": {"text/plain": 1}})")
        << "cells[0].outputs[0].data[\"text/plain\"]"
        << "expected a string or a list of strings";
}

void TestIpynb::brokenInput()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, where);
    QFETCH(QString, what);
    const Expected<NotebookData> read = IpynbReader::parse(bytes, "/data/broken.ipynb");
    QVERIFY(!read.ok());
    const NotebookError& e = read.error();
    QCOMPARE(e.file, QString("/data/broken.ipynb"));
    QVERIFY2(e.where.contains(where), qPrintable(e.message()));
    QVERIFY2(e.what.contains(what), qPrintable(e.message()));
    QVERIFY(e.message().startsWith("/data/broken.ipynb: "));
}

QTEST_GUILESS_MAIN(TestIpynb)
#include "tst_ipynb.moc"
