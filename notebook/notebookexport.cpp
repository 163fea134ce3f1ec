#include "notebook/notebookexport.h"

#include "notebook/exporthtml.h"

#include <QRegularExpression>
#include <QSaveFile>

namespace lizard::notebook {

namespace {

// Cell magics that make a code cell another language (IPython runs it through a subprocess).
QString cellMagicLanguage(const QString& source)
{
    static const QRegularExpression magic(
        QStringLiteral("^\\s*%%(bash|sh|script|javascript|js|html|perl|ruby|"
                       "svg|latex|markdown|writefile)\\b"));
    const auto m = magic.match(source);
    return m.hasMatch() ? m.captured(1) : QString();
}

QString commented(const QString& text)
{
    QStringList lines = text.split(u'\n');
    for (QString& line : lines)
        line = line.isEmpty() ? QStringLiteral("#") : QStringLiteral("# ") + line;
    return lines.join(u'\n');
}

} // namespace

QString notebookLanguage(const NotebookData& data)
{
    const auto& meta = data.metadata;
    if (!meta.is_object())
        return QStringLiteral("python");
    for (const char* key : {"language_info", "kernelspec"}) {
        const auto it = meta.find(key);
        if (it == meta.end() || !it->is_object())
            continue;
        const char* field = std::string_view(key) == "language_info" ? "name" : "language";
        const auto value = it->find(field);
        if (value != it->end() && value->is_string() && !value->get<std::string>().empty())
            return QString::fromStdString(value->get<std::string>()).toLower();
    }
    return QStringLiteral("python");
}

QString exportPythonScript(const NotebookData& data, const QString& title)
{
    const QString language = notebookLanguage(data);
    const bool python = language == u"python";
    QStringList parts;
    parts << QStringLiteral("# %1, exported by lizard-desktop").arg(title);
    if (!python)
        parts << QStringLiteral(
                     "# This notebook's code is %1, not Python: its code cells are comments below.")
                     .arg(language);
    for (const CellData& cell : data.cells) {
        QString source = cell.source;
        if (source.endsWith(u'\n'))
            source.chop(1);
        switch (cell.type) {
        case CellType::Markdown:
            parts << QStringLiteral("# %% [markdown]\n") + commented(source);
            break;
        case CellType::Raw:
            parts << QStringLiteral("# %% [raw]\n") + commented(source);
            break;
        case CellType::Code: {
            const QString magic = cellMagicLanguage(source);
            if (!python || !magic.isEmpty()) {
                const QString what = python ? QStringLiteral("a %%%1 cell").arg(magic)
                                            : QStringLiteral("%1 code").arg(language);
                parts << QStringLiteral("# %%\n# Note: %1, not Python; kept as a comment.\n")
                                 .arg(what) +
                             commented(source);
                break;
            }
            // IPython's line magics and shell escapes are not Python: comments, as jupytext does.
            QStringList lines = source.split(u'\n');
            for (QString& line : lines) {
                const QString lead = line.trimmed();
                if (lead.startsWith(u'%') || lead.startsWith(u'!'))
                    line = QStringLiteral("# ") + line;
            }
            parts << QStringLiteral("# %%\n") + lines.join(u'\n');
            break;
        }
        }
    }
    return parts.join(QStringLiteral("\n\n")) + u'\n';
}

QString exportHtml(const NotebookData& data, const QString& title)
{
    return renderHtmlPage(data, title, notebookLanguage(data));
}

MaybeError exportNotebook(const NotebookData& data, const QString& title, ExportFormat format,
                          const QString& path)
{
    const QString text =
        format == ExportFormat::Html ? exportHtml(data, title) : exportPythonScript(data, title);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return NotebookError{path, {}, QStringLiteral("cannot write: %1").arg(file.errorString())};
    const QByteArray bytes = text.toUtf8();
    if (file.write(bytes) != bytes.size() || !file.commit())
        return NotebookError{path, {}, QStringLiteral("cannot write: %1").arg(file.errorString())};
    return std::nullopt;
}

} // namespace lizard::notebook
