// TerminalView: the mouse. Reported to the program when it asked (xterm mouse modes, via
// libvterm's encoder) unless Shift is held; otherwise it selects text: drag for cells,
// double-click for a word, triple-click for lines; the selection is the X primary selection.

#include "terminal/terminalscreen.h"
#include "ui/terminal/terminalkeys.h"
#include "ui/terminal/terminalview.h"

#include <QApplication>
#include <QClipboard>
#include <QMouseEvent>
#include <QScrollBar>
#include <QStyleHints>
#include <vterm.h>

namespace lizard::ui {

using terminal::GridCell;
using terminal::TerminalScreen;

namespace {

int vtermButton(Qt::MouseButton button)
{
    switch (button) {
    case Qt::LeftButton:
        return 1;
    case Qt::MiddleButton:
        return 2;
    case Qt::RightButton:
        return 3;
    default:
        return 0;
    }
}

bool wordChar(char32_t ch)
{
    if (ch == 0 || ch == U' ')
        return false;
    if (QChar::isLetterOrNumber(ch))
        return true;
    return QStringView(u"_-./~:@%+=?&#$").contains(QChar(char16_t(ch)));
}

} // namespace

bool TerminalView::reportsMouse(const QMouseEvent* event) const
{
    return m_screen->mouseMode() != TerminalScreen::MouseOff &&
           !(event->modifiers() & Qt::ShiftModifier);
}

bool TerminalView::reportMouse(const QPoint& point, int button, bool pressed,
                               Qt::KeyboardModifiers mods)
{
    const Pos pos = cellAtPoint(point);
    const qint64 row = pos.line - screenLine();
    if (row < 0 || row >= m_screen->rows())
        return false;
    VTerm* vt = m_screen->vterm();
    vterm_mouse_move(vt, int(row), pos.col, vt::modifiers(mods));
    if (button > 0)
        vterm_mouse_button(vt, button, pressed, vt::modifiers(mods));
    emitPending();
    return true;
}

void TerminalView::mousePressEvent(QMouseEvent* event)
{
    const QPoint point = event->position().toPoint();
    if (reportsMouse(event)) {
        m_mouseReporting =
            reportMouse(point, vtermButton(event->button()), true, event->modifiers());
        return;
    }
    if (event->button() == Qt::MiddleButton) {
        sendPaste(QApplication::clipboard()->text(QClipboard::Selection));
        return;
    }
    if (event->button() != Qt::LeftButton)
        return;
    const bool triple =
        m_lastDoubleClick.isValid() &&
        m_lastDoubleClick.elapsed() < QApplication::styleHints()->mouseDoubleClickInterval();
    m_lastDoubleClick.invalidate();
    m_anchor = m_head = cellAtPoint(point);
    m_selectMode = triple ? SelectMode::Lines : SelectMode::Cells;
    m_hasSelection = triple;
    m_selecting = true;
    updateSelection();
}

void TerminalView::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (reportsMouse(event)) {
        // Qt turns the second press into this event; the program wants it as a press.
        m_mouseReporting = reportMouse(event->position().toPoint(), vtermButton(event->button()),
                                       true, event->modifiers());
        return;
    }
    if (event->button() != Qt::LeftButton)
        return;
    m_anchor = m_head = cellAtPoint(event->position().toPoint());
    m_selectMode = SelectMode::Words;
    m_hasSelection = true;
    m_selecting = true;
    m_lastDoubleClick.start();
    updateSelection();
}

void TerminalView::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint point = event->position().toPoint();
    if (m_mouseReporting ||
        (reportsMouse(event) && m_screen->mouseMode() == TerminalScreen::MouseMove)) {
        reportMouse(point, 0, false, event->modifiers());
        return;
    }
    if (!m_selecting || !(event->buttons() & Qt::LeftButton))
        return;
    // Dragging past the top or bottom edge scrolls the scrollback.
    if (point.y() < 0)
        verticalScrollBar()->setValue(verticalScrollBar()->value() - 1);
    else if (point.y() > viewport()->height())
        verticalScrollBar()->setValue(verticalScrollBar()->value() + 1);
    const Pos head = cellAtPoint(point);
    if (head == m_head)
        return;
    m_head = head;
    m_hasSelection = true;
    updateSelection();
}

void TerminalView::mouseReleaseEvent(QMouseEvent* event)
{
    if (m_mouseReporting) {
        reportMouse(event->position().toPoint(), vtermButton(event->button()), false,
                    event->modifiers());
        m_mouseReporting = event->buttons() != Qt::NoButton;
        return;
    }
    if (m_selecting && event->button() == Qt::LeftButton) {
        m_selecting = false;
        publishSelection();
    }
}

void TerminalView::wheelEvent(QWheelEvent* event)
{
    m_wheelRemainder += event->angleDelta().y();
    const int steps = m_wheelRemainder / 120;
    m_wheelRemainder -= steps * 120;
    if (steps == 0)
        return;
    const QPoint point = event->position().toPoint();
    if (m_screen->mouseMode() != TerminalScreen::MouseOff &&
        !(event->modifiers() & Qt::ShiftModifier)) {
        for (int i = 0; i < std::abs(steps); ++i)
            reportMouse(point, steps > 0 ? 4 : 5, true, event->modifiers());
    } else if (m_screen->isAltScreen()) {
        // less, man and vim without mouse reporting scroll with the arrow keys.
        for (int i = 0; i < 3 * std::abs(steps); ++i)
            vterm_keyboard_key(m_screen->vterm(), steps > 0 ? VTERM_KEY_UP : VTERM_KEY_DOWN,
                               VTERM_MOD_NONE);
        emitPending();
    } else {
        verticalScrollBar()->setValue(verticalScrollBar()->value() - 3 * steps);
    }
    event->accept();
}

void TerminalView::updateSelection()
{
    const Pos a = std::min(m_anchor, m_head);
    const Pos b = std::max(m_anchor, m_head);
    switch (m_selectMode) {
    case SelectMode::Cells:
        m_selStart = a;
        m_selEnd = {b.line, b.col + 1};
        break;
    case SelectMode::Lines:
        m_selStart = {a.line, 0};
        m_selEnd = {b.line, m_screen->cols()};
        break;
    case SelectMode::Words: {
        std::vector<GridCell> cells;
        lineCells(a.line, cells);
        int start = a.col;
        while (start > 0 && (cells[start - 1].width == 0 || wordChar(cells[start - 1].ch)) &&
               wordChar(cells[start].ch))
            --start;
        lineCells(b.line, cells);
        int end = b.col + 1;
        while (end < int(cells.size()) && (cells[end].width == 0 || wordChar(cells[end].ch)) &&
               wordChar(cells[end - 1].ch))
            ++end;
        m_selStart = {a.line, start};
        m_selEnd = {b.line, end};
        break;
    }
    }
    viewport()->update();
}

bool TerminalView::isSelected(qint64 line, int col) const
{
    if (!m_hasSelection)
        return false;
    const Pos pos{line, col};
    return !(pos < m_selStart) && pos < m_selEnd;
}

void TerminalView::publishSelection()
{
    QClipboard* clipboard = QApplication::clipboard();
    const QString text = selectedText();
    if (clipboard->supportsSelection() && !text.isEmpty())
        clipboard->setText(text, QClipboard::Selection);
}

} // namespace lizard::ui
