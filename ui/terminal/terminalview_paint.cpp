// TerminalView: painting. Runs of cells with the same attributes are drawn with one drawText;
// wide characters and glyphs from fallback fonts (whose advance is not the cell's) are drawn
// one by one at their cell, so a run never drifts off the grid.

#include "terminal/terminalscreen.h"
#include "ui/terminal/terminalview.h"

#include <QFontMetricsF>
#include <QGlyphRun>
#include <QPaintEvent>
#include <QPainter>

namespace lizard::ui {

using terminal::GridCell;

namespace {

constexpr int kPadLeft = 2;
constexpr int kPadTop = 1;

bool regularCell(const GridCell& cell)
{
    return cell.width == 1 && cell.mark == 0 && cell.ch < 0x80;
}

} // namespace

QRect TerminalView::rowRect(int viewportRow) const
{
    return QRect(0, kPadTop + viewportRow * m_cellHeight, viewport()->width(), m_cellHeight);
}

bool TerminalView::regularGlyph(char32_t ch)
{
    if (ch < 0x80)
        return true;
    const auto it = m_regular.constFind(ch);
    if (it != m_regular.constEnd())
        return *it;
    const QFontMetricsF metrics(m_fonts[0]);
    const bool regular =
        metrics.inFontUcs4(ch) &&
        qAbs(metrics.horizontalAdvance(QString::fromUcs4(&ch, 1)) - m_cellWidth) < 0.05;
    m_regular.insert(ch, regular);
    return regular;
}

QRect TerminalView::cellRect(int row, int col) const
{
    const int x0 = qRound(kPadLeft + col * m_cellWidth);
    return QRect(x0, rowRect(row).top(), qRound(kPadLeft + (col + 1) * m_cellWidth) - x0,
                 m_cellHeight);
}

TerminalView::CursorShape TerminalView::cursorShape() const
{
    switch (m_screen->cursorShape()) {
    case terminal::TerminalScreen::CursorUnderline:
        return CursorShape::Underline;
    case terminal::TerminalScreen::CursorBar:
        return CursorShape::Bar;
    default:
        return CursorShape::Block;
    }
}

QColor TerminalView::cursorColor() const
{
    return m_palette.cursor;
}

TerminalView::Pos TerminalView::cellAtPoint(const QPoint& point) const
{
    const int col = std::clamp(int((point.x() - kPadLeft) / m_cellWidth), 0, m_screen->cols() - 1);
    const int row = std::clamp((point.y() - kPadTop) / m_cellHeight, 0, m_screen->rows() - 1);
    return {viewLine() + row, col};
}

void TerminalView::paintEvent(QPaintEvent* event)
{
    QPainter painter(viewport());
    const bool reverse = m_screen->reverseVideo();
    painter.fillRect(event->rect(), reverse ? m_palette.foreground : m_palette.background);
    const qint64 top = viewLine();
    std::vector<GridCell> cells;
    for (int i = 0; i < m_screen->rows(); ++i) {
        const QRect rect = rowRect(i);
        if (!event->region().intersects(rect))
            continue;
        lineCells(top + i, cells);
        paintRow(painter, rect.top(), cells.data(), int(cells.size()), top + i);
    }
    paintCursor(painter);
}

void TerminalView::paintRow(QPainter& painter, int y, const GridCell* cells, int cols, qint64 line)
{
    const bool screenReverse = m_screen->reverseVideo();
    const QColor plainBackground = screenReverse ? m_palette.foreground : m_palette.background;
    QString text;
    int col = 0;
    while (col < cols) {
        const GridCell& first = cells[col];
        if (first.width == 0) {
            ++col;
            continue;
        }
        const int start = col;
        const bool selected = isSelected(line, col);
        text.clear();
        bool blank = true;
        const bool single = !regularCell(first) && !regularGlyph(first.ch);
        if (!regularCell(first)) {
            const char32_t ch = first.ch == 0 ? U' ' : first.ch;
            text = QString::fromUcs4(&ch, 1);
            if (first.mark != 0)
                text += QString::fromUcs4(&first.mark, 1);
            blank = ch == U' ' && first.mark == 0;
            col += std::max<int>(1, first.width);
            // Same-width glyphs of the font itself may join the run that follows.
            if (!single && first.width == 1) {
                while (col < cols && cells[col].attr == first.attr && cells[col].width == 1 &&
                       cells[col].mark == 0 && regularGlyph(cells[col].ch) &&
                       isSelected(line, col) == selected) {
                    const char32_t c = cells[col].ch == 0 ? U' ' : cells[col].ch;
                    text += QString::fromUcs4(&c, 1);
                    blank = blank && c == U' ';
                    ++col;
                }
            }
        } else {
            while (col < cols && regularCell(cells[col]) && cells[col].attr == first.attr &&
                   isSelected(line, col) == selected) {
                const char16_t c = cells[col].ch == 0 ? u' ' : char16_t(cells[col].ch);
                text += QChar(c);
                blank = blank && c == u' ';
                ++col;
            }
        }
        const terminal::CellAttr& attr = first.attr;
        QColor fg = m_palette.color(attr.fg, false);
        QColor bg = m_palette.color(attr.bg, true);
        const bool reverse = bool(attr.flags & terminal::Reverse) != screenReverse;
        if (reverse)
            std::swap(fg, bg);
        if (selected) {
            bg = m_palette.selection;
            fg = m_palette.selectionText;
        }
        const int x0 = qRound(kPadLeft + start * m_cellWidth);
        const int x1 = qRound(kPadLeft + col * m_cellWidth);
        if (bg != plainBackground)
            painter.fillRect(QRect(x0, y, x1 - x0, m_cellHeight), bg);
        if (!blank) {
            const int face =
                (attr.flags & terminal::Bold ? 1 : 0) | (attr.flags & terminal::Italic ? 2 : 0);
            painter.setPen(fg);
            const QPointF origin(kPadLeft + start * m_cellWidth, y + m_ascent);
            if (!drawAscii(painter, face, origin, text)) {
                painter.setFont(m_fonts[face]);
                painter.drawText(origin, text);
            }
        }
        if (attr.flags & (terminal::Underline | terminal::Strike)) {
            painter.setPen(fg);
            if (attr.flags & terminal::Underline)
                painter.drawLine(x0, y + m_ascent + 1, x1 - 1, y + m_ascent + 1);
            if (attr.flags & terminal::Strike)
                painter.drawLine(x0, y + m_cellHeight / 2, x1 - 1, y + m_cellHeight / 2);
        }
    }
}

bool TerminalView::drawAscii(QPainter& painter, int face, QPointF origin, const QString& text)
{
    const AsciiGlyphs& glyphs = m_ascii[face];
    if (!glyphs.usable)
        return false;
    m_runGlyphs.clear();
    m_runPositions.clear();
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char16_t c = text.at(i).unicode();
        if (c >= 0x7f || c < 0x20)
            return false;
        if (c == u' ')
            continue;
        m_runGlyphs.append(glyphs.index[c]);
        m_runPositions.append(QPointF(i * m_cellWidth, 0));
    }
    QGlyphRun run;
    run.setRawFont(glyphs.raw);
    run.setGlyphIndexes(m_runGlyphs);
    run.setPositions(m_runPositions);
    painter.drawGlyphRun(origin, run);
    return true;
}

void TerminalView::paintCursor(QPainter& painter)
{
    if (!m_screen->cursorVisible())
        return;
    const int row = int(screenLine() + m_screen->cursorRow() - viewLine());
    if (row < 0 || row >= m_screen->rows())
        return;
    const int col = std::min(m_screen->cursorCol(), m_screen->cols() - 1);
    const GridCell& cell = m_screen->cell(m_screen->cursorRow(), col);
    const int width = cell.width == 2 ? 2 : 1;
    const int y = rowRect(row).top();
    const QRect rect(qRound(kPadLeft + col * m_cellWidth), y,
                     qRound(kPadLeft + (col + width) * m_cellWidth) -
                         qRound(kPadLeft + col * m_cellWidth),
                     m_cellHeight);
    // The shape a program asked for (vim's insert mode: a bar); a thin one stays filled when
    // the view has no focus, since its outline would be the same line.
    const int thickness = std::max(2, m_cellHeight / 8);
    if (m_screen->cursorShape() == terminal::TerminalScreen::CursorBar) {
        painter.fillRect(QRect(rect.left(), y, thickness, m_cellHeight), m_palette.cursor);
        return;
    }
    if (m_screen->cursorShape() == terminal::TerminalScreen::CursorUnderline) {
        painter.fillRect(QRect(rect.left(), y + m_cellHeight - thickness, rect.width(), thickness),
                         m_palette.cursor);
        return;
    }
    if (!hasFocus()) {
        painter.setPen(m_palette.cursor);
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(rect.adjusted(0, 0, -1, -1));
        return;
    }
    painter.fillRect(rect, m_palette.cursor);
    if (cell.ch != 0 && cell.ch != U' ' && cell.width != 0) {
        QString text = QString::fromUcs4(&cell.ch, 1);
        if (cell.mark != 0)
            text += QString::fromUcs4(&cell.mark, 1);
        painter.setFont(m_fonts[(cell.attr.flags & terminal::Bold ? 1 : 0) |
                                (cell.attr.flags & terminal::Italic ? 2 : 0)]);
        painter.setPen(m_palette.background);
        painter.drawText(QPointF(kPadLeft + col * m_cellWidth, y + m_ascent), text);
    }
}

} // namespace lizard::ui
