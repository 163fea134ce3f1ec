#include "ui/terminal/terminalview.h"

#include "terminal/terminalscreen.h"
#include "ui/terminal/terminalkeys.h"

#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QFontInfo>
#include <QFontMetricsF>
#include <QKeyEvent>
#include <QPalette>
#include <QScrollBar>
#include <algorithm>
#include <vterm.h>

namespace lizard::ui {

using terminal::GridCell;
using terminal::TerminalScreen;

namespace {

constexpr qint64 kSliceNs = 4'000'000; // parse at most this long per event-loop turn
// Bytes per libvterm call: a clock check between calls, and libvterm 0.1.4 decodes a call into
// a stack array sized by its length (a multi-MB call overflows the stack).
constexpr int kChunk = 16 * 1024;
constexpr int kFrameMs = 16;
constexpr int kScrollback = 10000;

QFont defaultFont()
{
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    if (!QFontInfo(font).fixedPitch())
        font = QFont(QStringLiteral("DejaVu Sans Mono"), 10);
    font.setStyleHint(QFont::TypeWriter);
    return font;
}

} // namespace

TerminalView::TerminalView(QWidget* parent)
    : QAbstractScrollArea(parent), m_screen(std::make_unique<TerminalScreen>(24, 80, kScrollback)),
      m_baseFont(defaultFont())
{
    m_screen->setListener({
        [this](const char* s, size_t n) { m_output.append(s, qsizetype(n)); },
        [this] { m_bellPending = true; },
        [this](const QString&) { m_titlePending = true; },
    });
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_InputMethodEnabled);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    viewport()->setCursor(Qt::IBeamCursor);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    viewport()->setMouseTracking(true);
    setDarkPalette(palette().color(QPalette::Window).lightness() < 128);

    m_feedTimer.setInterval(0);
    connect(&m_feedTimer, &QTimer::timeout, this, &TerminalView::processSlice);
    m_frameTimer.setSingleShot(true);
    connect(&m_frameTimer, &QTimer::timeout, this, &TerminalView::frame);
    m_sizeTimer.setSingleShot(true);
    m_sizeTimer.setInterval(30);
    connect(&m_sizeTimer, &QTimer::timeout, this, [this] {
        const QSize grid(columns(), rows());
        if (grid != m_reportedSize) {
            m_reportedSize = grid;
            emit sizeChanged(grid.width(), grid.height());
        }
    });
    m_sinceFrame.start();
    applyFont();
}

TerminalView::~TerminalView() = default;

void TerminalView::feed(const QByteArray& bytes)
{
    if (bytes.isEmpty())
        return;
    m_pending.push_back(bytes); // shared, not copied
    m_pendingBytes += bytes.size();
    if (!m_feedTimer.isActive())
        m_feedTimer.start();
}

void TerminalView::feedReplay(const QByteArray& bytes)
{
    // Only a prefix of what is pending can be quiet: live output fed before would otherwise
    // be taken for replay.
    if (m_pendingBytes == m_quietBytes)
        m_quietBytes += bytes.size();
    feed(bytes);
}

void TerminalView::flush()
{
    process(0);
    m_feedTimer.stop();
    frame();
}

void TerminalView::processSlice()
{
    process(kSliceNs);
    if (m_pending.empty()) {
        m_feedTimer.stop();
        emit drained();
    }
}

void TerminalView::process(qint64 budgetNs)
{
    QElapsedTimer clock;
    clock.start();
    while (!m_pending.empty()) {
        const QByteArray& front = m_pending.front();
        qsizetype n = std::min<qsizetype>(kChunk, front.size() - m_pendingOffset);
        if (m_quietBytes > 0)
            n = std::min<qsizetype>(n, qsizetype(m_quietBytes));
        m_screen->write(front.constData() + m_pendingOffset, size_t(n));
        m_pendingOffset += n;
        m_pendingBytes -= n;
        if (m_quietBytes > 0) {
            m_quietBytes -= n;
            m_output.clear();
        }
        if (m_pendingOffset >= front.size()) {
            m_pending.pop_front();
            m_pendingOffset = 0;
        }
        emitPending();
        if (budgetNs > 0 && clock.nsecsElapsed() >= budgetNs)
            break;
    }
    scheduleFrame();
}

void TerminalView::emitPending()
{
    if (!m_output.isEmpty()) {
        const QByteArray bytes = std::exchange(m_output, QByteArray());
        emit input(bytes);
    }
    if (std::exchange(m_titlePending, false))
        emit titleChanged(m_screen->title());
    if (std::exchange(m_bellPending, false))
        emit bell();
}

void TerminalView::scheduleFrame()
{
    if (!m_screen->hasDamage() || m_frameTimer.isActive())
        return;
    const qint64 since = m_sinceFrame.elapsed();
    if (since >= kFrameMs)
        frame();
    else
        m_frameTimer.start(int(kFrameMs - since));
}

void TerminalView::frame()
{
    m_frameTimer.stop();
    m_sinceFrame.restart();
    const int before = verticalScrollBar()->value();
    syncScrollBar();
    if (m_screen->hasDamage() || verticalScrollBar()->value() != before) {
        // Only damaged rows when the screen is in view and did not move.
        const bool screenInView = viewLine() == screenLine();
        bool all = !screenInView || verticalScrollBar()->value() != before;
        QRegion region;
        for (int r = 0; r < m_screen->rows() && !all; ++r) {
            if (m_screen->rowDamaged(r))
                region += rowRect(r);
        }
        if (all || region.rectCount() > m_screen->rows() / 2)
            viewport()->update();
        else
            viewport()->update(region);
        m_screen->clearDamage();
    }
}

qint64 TerminalView::firstLine() const
{
    return m_screen->scrollback().dropped();
}

qint64 TerminalView::screenLine() const
{
    return firstLine() + m_screen->scrollback().size();
}

qint64 TerminalView::viewLine() const
{
    // The alternate screen has no scrollback to scroll to.
    return m_screen->isAltScreen() ? screenLine() : firstLine() + verticalScrollBar()->value();
}

void TerminalView::syncScrollBar()
{
    QScrollBar* bar = verticalScrollBar();
    const int lines = m_screen->isAltScreen() ? 0 : m_screen->scrollback().size();
    const qint64 dropped = m_screen->scrollback().dropped();
    // Scrolled back, the view keeps showing the same lines while new ones arrive.
    const int value = m_following ? lines : int(bar->value() - (dropped - m_lastDropped));
    m_lastDropped = dropped;
    const QSignalBlocker blocker(bar);
    bar->setRange(0, lines);
    bar->setPageStep(m_screen->rows());
    bar->setSingleStep(1);
    bar->setValue(std::clamp(value, 0, lines));
}

void TerminalView::scrollContentsBy(int, int)
{
    m_following = verticalScrollBar()->value() == verticalScrollBar()->maximum();
    viewport()->update();
}

void TerminalView::scrollToBottom()
{
    m_following = true;
    verticalScrollBar()->setValue(verticalScrollBar()->maximum());
}

void TerminalView::reset()
{
    m_pending.clear();
    m_pendingOffset = 0;
    m_pendingBytes = 0;
    m_quietBytes = 0;
    m_feedTimer.stop();
    m_screen->reset();
    m_output.clear();
    m_hasSelection = false;
    m_following = true;
    m_lastDropped = 0;
    syncScrollBar();
    viewport()->update();
}

int TerminalView::columns() const
{
    return m_screen->cols();
}

int TerminalView::rows() const
{
    return m_screen->rows();
}

QString TerminalView::title() const
{
    return m_screen->title();
}

QString TerminalView::screenText() const
{
    QStringList lines;
    for (int r = 0; r < m_screen->rows(); ++r)
        lines << m_screen->rowText(r);
    return lines.join(QLatin1Char('\n'));
}

QString TerminalView::lineText(int row) const
{
    return row >= 0 && row < m_screen->rows() ? m_screen->rowText(row) : QString();
}

TerminalView::Cell TerminalView::cellAt(int row, int col) const
{
    Cell out;
    if (row < 0 || row >= m_screen->rows() || col < 0 || col >= m_screen->cols())
        return out;
    const GridCell& cell = m_screen->cell(row, col);
    if (cell.ch != 0 && cell.width != 0) {
        out.text = QString::fromUcs4(&cell.ch, 1);
        if (cell.mark != 0)
            out.text += QString::fromUcs4(&cell.mark, 1);
    }
    out.fg = m_palette.color(cell.attr.fg, false);
    out.bg = m_palette.color(cell.attr.bg, true);
    out.bold = cell.attr.flags & terminal::Bold;
    out.italic = cell.attr.flags & terminal::Italic;
    out.underline = cell.attr.flags & terminal::Underline;
    out.reverse = cell.attr.flags & terminal::Reverse;
    out.width = cell.width;
    return out;
}

int TerminalView::scrollbackLines() const
{
    return m_screen->scrollback().size();
}

bool TerminalView::isAlternateScreen() const
{
    return m_screen->isAltScreen();
}

void TerminalView::copy()
{
    const QString text = selectedText();
    if (!text.isEmpty())
        QApplication::clipboard()->setText(text);
}

void TerminalView::paste()
{
    sendPaste(QApplication::clipboard()->text());
}

void TerminalView::sendPaste(const QString& text)
{
    if (text.isEmpty())
        return;
    QString body = text;
    body.replace(QLatin1String("\r\n"), QLatin1String("\r"))
        .replace(QLatin1Char('\n'), QLatin1Char('\r'));
    // A paste must not end bracketed paste itself (and run the rest as typed commands).
    body.remove(QLatin1String("\x1b[201~"));
    vterm_keyboard_start_paste(m_screen->vterm()); // \e[200~ only when the app asked (2004)
    m_output += body.toUtf8();
    vterm_keyboard_end_paste(m_screen->vterm());
    emitPending();
    scrollToBottom();
}

void TerminalView::setTerminalFont(const QFont& font)
{
    m_baseFont = font;
    applyFont();
}

void TerminalView::zoomIn()
{
    ++m_zoom;
    applyFont();
}

void TerminalView::zoomOut()
{
    if (m_baseFont.pointSizeF() + m_zoom - 1 >= 4)
        --m_zoom;
    applyFont();
}

void TerminalView::resetZoom()
{
    m_zoom = 0;
    applyFont();
}

void TerminalView::applyFont()
{
    QFont font = m_baseFont;
    if (font.pointSizeF() > 0)
        font.setPointSizeF(std::max(4.0, font.pointSizeF() + m_zoom));
    font.setKerning(false);
    for (int i = 0; i < 4; ++i) {
        m_fonts[i] = font;
        m_fonts[i].setBold(i & 1);
        m_fonts[i].setItalic(i & 2);
    }
    const QFontMetricsF metrics(font);
    m_cellWidth = metrics.horizontalAdvance(QLatin1Char('M'));
    m_cellHeight = qCeil(metrics.height());
    m_ascent = qCeil(metrics.ascent());
    m_regular.clear();
    QString printable;
    for (char16_t c = 0x20; c < 0x7f; ++c)
        printable += QChar(c);
    for (int i = 0; i < 4; ++i) {
        AsciiGlyphs& glyphs = m_ascii[i];
        glyphs.raw = QRawFont::fromFont(m_fonts[i]);
        const QList<quint32> indexes =
            glyphs.raw.isValid() ? glyphs.raw.glyphIndexesForString(printable) : QList<quint32>();
        glyphs.usable = indexes.size() == printable.size() && !indexes.contains(0u);
        for (qsizetype k = 0; glyphs.usable && k < indexes.size(); ++k)
            glyphs.index[0x20 + k] = indexes[k];
    }
    updateGrid();
    viewport()->update();
}

void TerminalView::updateGrid()
{
    const QSize area = viewport()->size();
    const int cols = std::max(2, int((area.width() - 4) / m_cellWidth));
    const int rows = std::max(1, (area.height() - 2) / m_cellHeight);
    if (cols != m_screen->cols() || rows != m_screen->rows()) {
        if (cols != m_screen->cols())
            m_hasSelection = false; // the lines wrap anew: the selected cells are elsewhere
        m_screen->resize(rows, cols);
        emitPending();
        syncScrollBar();
        m_sizeTimer.start();
    }
}

void TerminalView::resizeEvent(QResizeEvent* event)
{
    QAbstractScrollArea::resizeEvent(event);
    updateGrid();
}

QSize TerminalView::sizeHint() const
{
    // 80×24 cells, the padding of updateGrid(), the scroll bar and the frame.
    return QSize(qCeil(80 * m_cellWidth) + 4 + verticalScrollBar()->sizeHint().width() +
                     2 * frameWidth(),
                 24 * m_cellHeight + 2 + 2 * frameWidth());
}

void TerminalView::setDarkPalette(bool dark)
{
    m_palette = dark ? vt::TerminalPalette::dark() : vt::TerminalPalette::light();
    viewport()->update();
}

bool TerminalView::event(QEvent* event)
{
    // Keys are the program's, not the window's shortcuts (Ctrl+W, Ctrl+C, Tab…).
    if (event->type() == QEvent::ShortcutOverride) {
        auto* key = static_cast<QKeyEvent*>(event);
        const auto mods = key->modifiers() & (Qt::ControlModifier | Qt::AltModifier);
        // Ctrl+Shift+letter is the app's, as in GNOME Terminal and Konsole (New terminal,
        // Close, Find...): a program could not tell it from Ctrl+letter anyway. Copy and paste
        // are the view's own.
        const bool appShortcut = key->modifiers() == (Qt::ControlModifier | Qt::ShiftModifier) &&
                                 key->key() >= Qt::Key_A && key->key() <= Qt::Key_Z &&
                                 key->key() != Qt::Key_C && key->key() != Qt::Key_V;
        if (appShortcut)
            return QAbstractScrollArea::event(event);
        if (mods || key->key() == Qt::Key_Tab || key->key() == Qt::Key_Backtab ||
            key->key() == Qt::Key_Escape || !key->text().isEmpty()) {
            event->accept();
            return true;
        }
    }
    return QAbstractScrollArea::event(event);
}

bool TerminalView::focusNextPrevChild(bool)
{
    return false;
}

void TerminalView::keyPressEvent(QKeyEvent* event)
{
    const auto mods = event->modifiers() & ~Qt::KeypadModifier;
    const int key = event->key();
    if (mods == (Qt::ControlModifier | Qt::ShiftModifier) && key == Qt::Key_C)
        return copy();
    if (mods == (Qt::ControlModifier | Qt::ShiftModifier) && key == Qt::Key_V)
        return paste();
    if (mods == Qt::ShiftModifier && key == Qt::Key_Insert)
        return sendPaste(QApplication::clipboard()->text(QClipboard::Selection));
    if (mods == Qt::ShiftModifier && (key == Qt::Key_PageUp || key == Qt::Key_PageDown) &&
        !m_screen->isAltScreen()) {
        QScrollBar* bar = verticalScrollBar();
        bar->setValue(bar->value() + (key == Qt::Key_PageUp ? -1 : 1) * bar->pageStep());
        return;
    }
    if (mods & Qt::ControlModifier) {
        if (key == Qt::Key_Equal || key == Qt::Key_Plus)
            return zoomIn();
        if (key == Qt::Key_Minus)
            return zoomOut();
        if (key == Qt::Key_0)
            return resetZoom();
    }
    if (vt::sendKey(m_screen->vterm(), *event)) {
        emitPending();
        scrollToBottom();
        event->accept();
        return;
    }
    QAbstractScrollArea::keyPressEvent(event);
}

void TerminalView::inputMethodEvent(QInputMethodEvent* event)
{
    const QString text = event->commitString();
    for (const char32_t ch : text.toUcs4())
        vterm_keyboard_unichar(m_screen->vterm(), ch, VTERM_MOD_NONE);
    emitPending();
    event->accept();
}

void TerminalView::focusInEvent(QFocusEvent* event)
{
    QAbstractScrollArea::focusInEvent(event);
    m_screen->setFocused(true);
    emitPending();
    viewport()->update();
}

void TerminalView::focusOutEvent(QFocusEvent* event)
{
    QAbstractScrollArea::focusOutEvent(event);
    m_screen->setFocused(false);
    emitPending();
    viewport()->update();
}

} // namespace lizard::ui
