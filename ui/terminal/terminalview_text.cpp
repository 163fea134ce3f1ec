// TerminalView: the text of lines in scrollback and on screen, for search and selection.
// Lines are numbered absolutely (every line that ever entered the scrollback counts), so a
// selection or a match stays on its line while output scrolls and the ring drops old lines.

#include "terminal/terminalscreen.h"
#include "ui/terminal/terminalview.h"

#include <QScrollBar>

namespace lizard::ui {

using terminal::GridCell;

void TerminalView::lineCells(qint64 line, std::vector<GridCell>& cells) const
{
    const int cols = m_screen->cols();
    cells.assign(cols, GridCell());
    const qint64 index = line - firstLine();
    const int sb = m_screen->scrollback().size();
    if (index < 0 || (index < sb && m_screen->isAltScreen()))
        return;
    if (index < sb) {
        m_screen->scrollback().cellsOf(int(index), cells.data(), cols);
    } else if (index - sb < m_screen->rows()) {
        const GridCell* row = m_screen->row(int(index - sb));
        std::copy(row, row + cols, cells.begin());
    }
}

QString TerminalView::cellsText(const std::vector<GridCell>& cells, int from, int to,
                                std::vector<int>* colOfChar) const
{
    QString text;
    for (int c = std::max(0, from); c < std::min<int>(to, int(cells.size())); ++c) {
        const GridCell& cell = cells[c];
        if (cell.width == 0)
            continue;
        const char32_t ch = cell.ch == 0 ? U' ' : cell.ch;
        const qsizetype before = text.size();
        text += QString::fromUcs4(&ch, 1);
        if (cell.mark != 0)
            text += QString::fromUcs4(&cell.mark, 1);
        if (colOfChar)
            colOfChar->insert(colOfChar->end(), size_t(text.size() - before), c);
    }
    return text;
}

bool TerminalView::find(const QString& text, bool backwards)
{
    if (text.isEmpty())
        return false;
    const qint64 first = firstLine();
    const qint64 last = screenLine() + m_screen->rows() - 1;
    const Pos from =
        m_hasSelection ? (backwards ? m_selStart : m_selEnd) : Pos{backwards ? last + 1 : first, 0};
    std::vector<GridCell> cells;
    std::vector<int> cols;
    for (qint64 line = backwards ? std::min(from.line, last) : std::max(from.line, first);
         line >= first && line <= last; line += backwards ? -1 : 1) {
        lineCells(line, cells);
        cols.clear();
        const QString hay = cellsText(cells, 0, int(cells.size()), &cols);
        qsizetype at = -1;
        if (backwards) {
            const qsizetype limit =
                line == from.line ? std::find(cols.begin(), cols.end(), from.col) - cols.begin() - 1
                                  : hay.size();
            if (limit >= 0)
                at = hay.lastIndexOf(text, limit, Qt::CaseInsensitive);
        } else {
            const qsizetype start =
                line == from.line
                    ? std::lower_bound(cols.begin(), cols.end(), from.col) - cols.begin()
                    : 0;
            at = hay.indexOf(text, start, Qt::CaseInsensitive);
        }
        if (at < 0)
            continue;
        const qsizetype end = at + text.size();
        m_selStart = {line, cols[at]};
        m_selEnd = {line, end < qsizetype(cols.size()) ? cols[end] : int(cells.size())};
        m_anchor = m_selStart;
        m_head = m_selEnd;
        m_selectMode = SelectMode::Cells;
        m_hasSelection = true;
        // Bring the match into view, a third from the top.
        const qint64 top = line - firstLine() - m_screen->rows() / 3;
        verticalScrollBar()->setValue(
            int(std::clamp<qint64>(top, 0, verticalScrollBar()->maximum())));
        m_following = verticalScrollBar()->value() == verticalScrollBar()->maximum();
        viewport()->update();
        return true;
    }
    return false;
}

QString TerminalView::selectedText() const
{
    if (!m_hasSelection)
        return QString();
    const Pos a = m_selStart;
    const Pos b = m_selEnd;
    QStringList lines;
    std::vector<GridCell> cells;
    for (qint64 line = a.line; line <= b.line; ++line) {
        lineCells(line, cells);
        QString text = cellsText(cells, line == a.line ? a.col : 0,
                                 line == b.line ? b.col : int(cells.size()));
        while (text.endsWith(QLatin1Char(' ')))
            text.chop(1);
        lines << text;
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace lizard::ui
