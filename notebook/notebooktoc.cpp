#include "notebook/notebooktoc.h"

#include "notebook/notebookdocument.h"

#include <QRegularExpression>

namespace lizard::notebook {

QList<TocEntry> headingsIn(const QString& markdown)
{
    // CommonMark: up to 3 spaces of indentation, 1-6 #s, then a space or the end of the line;
    // an optional closing run of #s is not part of the text.
    static const QRegularExpression heading(
        QStringLiteral("^ {0,3}(#{1,6})(?:[ \\t]+(.*?))?(?:[ \\t]+#+)?[ \\t]*$"));
    static const QRegularExpression fence(QStringLiteral("^ {0,3}(`{3,}|~{3,})"));
    static const QRegularExpression emphasis(QStringLiteral("(\\*\\*|__|\\*|`)"));
    QList<TocEntry> entries;
    QString openFence;
    for (const QString& line : markdown.split(u'\n')) {
        const QString text = line.endsWith(u'\r') ? line.chopped(1) : line;
        if (const auto f = fence.match(text); f.hasMatch()) {
            const QString marks = f.captured(1);
            if (openFence.isEmpty())
                openFence = marks;
            else if (marks[0] == openFence[0] && marks.size() >= openFence.size())
                openFence.clear();
            continue;
        }
        if (!openFence.isEmpty())
            continue;
        const auto m = heading.match(text);
        if (!m.hasMatch())
            continue;
        const QString title = m.captured(2).remove(emphasis).trimmed();
        if (!title.isEmpty())
            entries.append({-1, int(m.captured(1).size()), title});
    }
    return entries;
}

QList<TocEntry> tableOfContents(const NotebookDocument& document)
{
    QList<TocEntry> entries;
    for (int i = 0; i < document.cellCount(); ++i) {
        const Cell* cell = document.cell(i);
        if (cell->type() != CellType::Markdown)
            continue;
        for (TocEntry entry : headingsIn(cell->source())) {
            entry.cell = i;
            entries.append(entry);
        }
    }
    return entries;
}

} // namespace lizard::notebook
