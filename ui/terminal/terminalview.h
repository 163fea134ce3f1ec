#pragma once
// A terminal emulator widget: shows what a program on a PTY prints (escape sequences parsed
// by libvterm) and turns keys, pastes and mouse clicks into the bytes the program expects.
// The PTY itself is elsewhere: feed() takes its output, input() carries bytes back.

#include "terminal/terminalcell.h"
#include "ui/terminal/terminalpalette.h"

#include <QAbstractScrollArea>
#include <QByteArray>
#include <QColor>
#include <QElapsedTimer>
#include <QFont>
#include <QHash>
#include <QList>
#include <QPointF>
#include <QRawFont>
#include <QTimer>
#include <deque>
#include <memory>
#include <vector>

namespace lizard::terminal {
class TerminalScreen;
}

namespace lizard::ui {

class TerminalView : public QAbstractScrollArea
{
    Q_OBJECT
public:
    struct Cell
    {
        QString text; // empty for a never-written cell and the right half of a wide one
        QColor fg, bg;
        bool bold = false, italic = false, underline = false, reverse = false;
        int width = 1;
    };

    explicit TerminalView(QWidget* parent = nullptr);
    ~TerminalView() override;

    // Output of the PTY. Returns at once; the bytes are parsed in slices of at most ~4 ms per
    // event-loop turn, in order, and the view repaints at most once per frame.
    void feed(const QByteArray& bytes);
    // Output shown again (a replay after re-attaching): parsed as feed() does, but the
    // answers to queries in it (DA, DSR, ...) are not sent: the program asked long ago.
    void feedReplay(const QByteArray& bytes);
    void flush(); // parses everything fed so far, now
    qint64 pendingBytes() const { return m_pendingBytes; }
    void reset(); // clears screen and scrollback, drops what is pending

    int columns() const;
    int rows() const;
    QString title() const;
    // The terminal's screen (not the scrollback in view): parsed bytes only, see flush().
    QString screenText() const;
    QString lineText(int row) const;
    Cell cellAt(int row, int col) const;
    int scrollbackLines() const;
    bool isAlternateScreen() const;
    enum class CursorShape { Block, Underline, Bar }; // as the program set it (DECSCUSR)
    CursorShape cursorShape() const;
    QRect cellRect(int row, int col) const; // a screen cell, in the viewport's coordinates
    QColor cursorColor() const;

    bool find(const QString& text, bool backwards = false);
    QString selectedText() const;
    void copy();
    void paste();

    void setTerminalFont(const QFont& font);
    QFont terminalFont() const { return m_baseFont; }
    void zoomIn();
    void zoomOut();
    void resetZoom();
    void setDarkPalette(bool dark);

    QSize sizeHint() const override;

signals:
    void input(const QByteArray& bytes);
    void sizeChanged(int columns, int rows);
    void titleChanged(const QString& title);
    void bell();
    // Everything fed so far is parsed (pendingBytes() is 0 again): for flow control.
    void drained();

protected:
    bool event(QEvent* event) override;
    bool focusNextPrevChild(bool next) override;
    void keyPressEvent(QKeyEvent* event) override;
    void inputMethodEvent(QInputMethodEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void focusInEvent(QFocusEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    struct Pos
    {
        qint64 line = 0; // absolute: counts every line that ever entered the scrollback
        int col = 0;
        auto operator<=>(const Pos&) const = default;
    };
    enum class SelectMode { Cells, Words, Lines };

    void processSlice();
    void process(qint64 budgetNs);
    void emitPending(); // the replies, title and bell gathered while libvterm ran
    void scheduleFrame();
    void frame();
    void syncScrollBar();
    void applyFont();
    void updateGrid();
    void sendPaste(const QString& text);
    void scrollToBottom();

    // terminalview_paint.cpp
    Pos cellAtPoint(const QPoint& point) const;
    QRect rowRect(int viewportRow) const;
    void paintRow(QPainter& painter, int y, const terminal::GridCell* cells, int cols, qint64 line);
    bool regularGlyph(char32_t ch);
    // Draws a run of printable ASCII from m_ascii; false (nothing drawn) if it cannot.
    bool drawAscii(QPainter& painter, int face, QPointF origin, const QString& text);
    void paintCursor(QPainter& painter);

    // terminalview_mouse.cpp
    bool reportsMouse(const QMouseEvent* event) const;
    bool reportMouse(const QPoint& point, int button, bool pressed, Qt::KeyboardModifiers mods);
    void updateSelection(); // m_selStart/m_selEnd from anchor, head and mode
    bool isSelected(qint64 line, int col) const;
    void publishSelection();

    // terminalview_text.cpp (line numbers in terminalview.cpp)
    qint64 firstLine() const;  // absolute line of the oldest kept scrollback line
    qint64 screenLine() const; // absolute line of screen row 0
    qint64 viewLine() const;   // absolute line at the top of the viewport
    void lineCells(qint64 line, std::vector<terminal::GridCell>& cells) const;
    QString cellsText(const std::vector<terminal::GridCell>& cells, int from, int to,
                      std::vector<int>* colOfChar = nullptr) const;

    std::unique_ptr<terminal::TerminalScreen> m_screen;
    vt::TerminalPalette m_palette;
    std::deque<QByteArray> m_pending;
    qsizetype m_pendingOffset = 0;
    qint64 m_pendingBytes = 0;
    qint64 m_quietBytes = 0; // pending bytes, from the front, whose answers are dropped
    QByteArray m_output;
    bool m_bellPending = false;
    bool m_titlePending = false;
    QTimer m_feedTimer;
    QTimer m_frameTimer;
    QTimer m_sizeTimer;
    QElapsedTimer m_sinceFrame;
    QSize m_reportedSize;
    bool m_following = true;
    qint64 m_lastDropped = 0;

    QFont m_baseFont;
    int m_zoom = 0;
    QFont m_fonts[4]; // regular, bold, italic, bold italic
    qreal m_cellWidth = 8;
    int m_cellHeight = 16;
    int m_ascent = 12;
    QHash<char32_t, bool> m_regular;
    // Printable ASCII is drawn as glyph runs at the grid's positions, without text shaping,
    // which took most of a full screen's paint; per font of m_fonts, when it has every glyph.
    struct AsciiGlyphs
    {
        QRawFont raw;
        quint32 index[128] = {};
        bool usable = false;
    };
    AsciiGlyphs m_ascii[4];
    QList<quint32> m_runGlyphs; // scratch of paintRow
    QList<QPointF> m_runPositions;

    Pos m_anchor, m_head;     // the cells where the drag began and is now
    Pos m_selStart, m_selEnd; // what is selected, end exclusive
    bool m_hasSelection = false;
    bool m_selecting = false;
    SelectMode m_selectMode = SelectMode::Cells;
    QElapsedTimer m_lastDoubleClick;
    bool m_mouseReporting = false; // a press went to the program; its release goes too
    int m_wheelRemainder = 0;
};

} // namespace lizard::ui
