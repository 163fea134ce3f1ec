#include "notebook/exporthtml.h"

#include "notebook/ansihtml.h"
#include "notebook/notebooksearch.h"

#include <QRegularExpression>
#include <QTextDocument>

namespace lizard::notebook {

namespace {

const char* const kStyle = R"(
body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 0; background: #fff; color: #1f2328; }
main { max-width: 980px; margin: 0 auto; padding: 24px; }
h1.title { font-size: 14px; color: #57606a; font-weight: normal; border-bottom: 1px solid #d0d7de; padding-bottom: 8px; }
.cell { display: flex; margin: 10px 0; }
.prompt { flex: 0 0 80px; font: 12px monospace; color: #57606a; text-align: right; padding: 6px 8px 0 0; }
.out .prompt { color: #b35900; }
.body { flex: 1; min-width: 0; }
pre { margin: 0; padding: 6px 8px; font: 13px/1.4 "DejaVu Sans Mono", Menlo, Consolas, monospace; white-space: pre-wrap; word-wrap: break-word; }
.code pre.source { background: #f6f8fa; border: 1px solid #d0d7de; border-radius: 4px; }
.markdown .body { padding: 0 8px; line-height: 1.5; }
.stderr { background: #fff0f0; }
.error { background: #fff0f0; color: #82071e; }
.k { color: #0550ae; font-weight: bold; } .s { color: #0a3069; } .c { color: #6e7781; font-style: italic; } .n { color: #953800; }
img { max-width: 100%; }
table { border-collapse: collapse; } td, th { border: 1px solid #d0d7de; padding: 2px 6px; }
)";

QString escaped(const QString& text)
{
    return text.toHtmlEscaped();
}

QString dataUri(const QString& mime, const QString& base64)
{
    QString compact = base64;
    compact.remove(QRegularExpression(QStringLiteral("\\s")));
    return QStringLiteral("data:%1;base64,%2").arg(mime, compact);
}

QString prompt(const QString& text)
{
    return QStringLiteral("<div class=\"prompt\">%1</div>").arg(escaped(text));
}

QString cellToHtml(const CellData& cell, const QString& language)
{
    if (cell.type == CellType::Markdown) {
        return QStringLiteral("<div class=\"cell markdown\">%1<div class=\"body\">%2</div></div>\n")
            .arg(prompt({}), markdownToHtml(cell.source, cell.attachments));
    }
    if (cell.type == CellType::Raw)
        return QStringLiteral(
                   "<div class=\"cell raw\">%1<div class=\"body\"><pre>%2</pre></div></div>\n")
            .arg(prompt({}), escaped(cell.source));
    const QString count =
        cell.executionCount ? QString::number(*cell.executionCount) : QStringLiteral(" ");
    QString html = QStringLiteral("<div class=\"cell code\">%1<div class=\"body\"><pre "
                                  "class=\"source\">%2</pre></div></div>\n")
                       .arg(prompt(QStringLiteral("In [%1]:").arg(count)),
                            highlightCode(cell.source, language));
    for (const Output& output : cell.outputs) {
        const auto* rich = std::get_if<RichOutput>(&output);
        const bool result = rich && rich->kind == RichOutput::Kind::ExecuteResult;
        const QString label = result ? QStringLiteral("Out[%1]:").arg(count) : QString();
        html += QStringLiteral("<div class=\"cell out\">%1<div class=\"body\">%2</div></div>\n")
                    .arg(prompt(label), outputToHtml(output));
    }
    return html;
}

} // namespace

QString markdownToHtml(const QString& markdown, const nlohmann::json& attachments)
{
    QString source = markdown;
    if (attachments.is_object()) {
        for (const auto& [name, bundle] : attachments.items()) {
            if (!bundle.is_object())
                continue;
            for (const auto& [mime, value] : bundle.items()) {
                if (value.is_string() && QString::fromStdString(mime).startsWith(u"image/")) {
                    source.replace(QStringLiteral("attachment:") + QString::fromStdString(name),
                                   dataUri(QString::fromStdString(mime),
                                           QString::fromStdString(value.get<std::string>())));
                    break;
                }
            }
        }
    }
    QTextDocument document;
    document.setMarkdown(source);
    const QString html = document.toHtml();
    // toHtml() writes a whole page; the cell needs the body's contents.
    const qsizetype open = html.indexOf(QLatin1String("<body"));
    const qsizetype start = open < 0 ? -1 : html.indexOf(u'>', open);
    const qsizetype end = html.lastIndexOf(QLatin1String("</body>"));
    return start < 0 || end < start ? html : html.mid(start + 1, end - start - 1);
}

QString highlightCode(const QString& code, const QString& language)
{
    if (language != u"python")
        return escaped(code);
    static const QRegularExpression token(QStringLiteral(
        R"((#[^\n]*)|("""[\s\S]*?"""|'''[\s\S]*?'''|[rbfRBF]?"(?:\\.|[^"\\\n])*"|[rbfRBF]?'(?:\\.|[^'\\\n])*')|)"
        R"(\b(False|None|True|and|as|assert|async|await|break|class|continue|def|del|elif|else|except|finally|for|)"
        R"(from|global|if|import|in|is|lambda|nonlocal|not|or|pass|raise|return|try|while|with|yield)\b|)"
        R"(\b(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\b)"));
    static const char* const classes[] = {"", "c", "s", "k", "n"};
    QString html;
    qsizetype from = 0;
    for (auto it = token.globalMatch(code); it.hasNext();) {
        const auto m = it.next();
        html += escaped(code.mid(from, m.capturedStart() - from));
        int group = 1;
        while (group < 4 && !m.hasCaptured(group))
            ++group;
        html += QStringLiteral("<span class=\"%1\">%2</span>")
                    .arg(QLatin1String(classes[group]), escaped(m.captured()));
        from = m.capturedEnd();
    }
    return html + escaped(code.mid(from));
}

QString outputToHtml(const Output& output)
{
    if (const auto* stream = std::get_if<StreamOutput>(&output)) {
        QString text = stream->text;
        if (stream->spilled) // the middle stayed on disk; the export says so rather than guess
            text = stream->spilled->head +
                   QStringLiteral("\n… %1 characters not shown …\n")
                       .arg(stream->spilled->chars - stream->spilled->head.size() -
                            stream->text.size()) +
                   stream->text;
        return QStringLiteral("<pre class=\"stream %1\">%2</pre>")
            .arg(escaped(stream->name), escaped(stripAnsi(text)));
    }
    if (std::holds_alternative<ErrorOutput>(output))
        return QStringLiteral("<pre class=\"error\">%1</pre>")
            .arg(escaped(outputSearchText(output)));
    const auto& rich = std::get<RichOutput>(output);
    const QString mime = preferredMime(rich);
    if (mime.isEmpty())
        return QStringLiteral("<pre>[%1]</pre>")
            .arg(escaped(rich.mimeTypes().join(QStringLiteral(", "))));
    if (mime == u"image/svg+xml")
        return QStringLiteral("<img src=\"%1\" alt=\"image/svg+xml\">")
            .arg(dataUri(mime, QString::fromLatin1(rich.text(mime).toUtf8().toBase64())));
    if (mime.startsWith(QLatin1String("image/")))
        return QStringLiteral("<img src=\"%1\" alt=\"%2\">")
            .arg(dataUri(mime, rich.text(mime)), mime);
    if (mime == u"text/html") // e.g. a DataFrame's table, as Jupyter shows it
        return QStringLiteral("<div class=\"html\">%1</div>").arg(rich.text(mime));
    if (mime == u"text/markdown")
        return markdownToHtml(rich.text(mime));
    return QStringLiteral("<pre>%1</pre>").arg(escaped(rich.text(mime)));
}

QString renderHtmlPage(const NotebookData& data, const QString& title, const QString& language)
{
    QString html =
        QStringLiteral(
            "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>%1</title>\n"
            "<style>%2</style>\n</head>\n<body>\n<main>\n<h1 class=\"title\">%1</h1>\n")
            .arg(escaped(title), QLatin1String(kStyle));
    for (const CellData& cell : data.cells)
        html += cellToHtml(cell, language);
    return html + QStringLiteral("</main>\n</body>\n</html>\n");
}

} // namespace lizard::notebook
