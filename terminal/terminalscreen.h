#pragma once
// The terminal's model without a widget: libvterm's state layer (escape parsing, modes,
// cursor, pen, replies such as DA and DSR) drives our own grid of cells and the scrollback.
// libvterm's screen layer memmoves its whole grid on every line feed (2 MB/s for `seq` on
// the build host); this grid is a ring of rows, so a full-screen scroll is O(1).
//
// Plain text does not go through libvterm: its parser and per-glyph callbacks cost more than
// the rest of the terminal together. The bytes are cut as libvterm's parser would cut them
// (TerminalTokenizer); text and the controls that move within it (CR, LF, BS, HT) are put in
// the grid here, exactly as libvterm's on_text would put them, from a shadow of the state
// libvterm keeps for it (VtermShadow); everything else goes to libvterm, which is first told
// where the cursor now stands and what the last glyph was (sync) unless it is SGR, which does
// not care. terminalscreen_text.cpp holds that path.

#include "terminal/terminalcell.h"
#include "terminal/terminalscrollback.h"
#include "terminal/terminaltokenizer.h"
#include "terminal/vtermshadow.h"

#include <QString>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

struct VTerm;
struct VTermState;

namespace lizard::terminal {

class TerminalScreen
{
public:
    struct Listener
    {
        std::function<void(const char*, size_t)> output; // replies and key bytes for the PTY
        std::function<void()> bell;
        std::function<void(const QString&)> title;
    };
    enum MouseMode { MouseOff, MouseClick, MouseDrag, MouseMove };
    enum CursorShape { CursorBlock, CursorUnderline, CursorBar }; // DECSCUSR (CSI N SP q)

    TerminalScreen(int rows, int cols, int scrollbackLines = 10000);
    ~TerminalScreen();
    TerminalScreen(const TerminalScreen&) = delete;
    TerminalScreen& operator=(const TerminalScreen&) = delete;

    void setListener(Listener listener) { m_listener = std::move(listener); }
    VTerm* vterm() const { return m_vt; }

    void write(const char* bytes, size_t length);
    // Off: every byte goes to libvterm as it comes (the reference the fast path is tested
    // against, and what the bench compares with).
    void setFastPath(bool on);
    void resize(int rows, int cols);
    void reset(); // hard reset, scrollback cleared
    // The widget gained or lost the keyboard: reported to the program (CSI I, CSI O) when it
    // asked for focus events (DECSET 1004), as vim and tmux do.
    void setFocused(bool focused);

    int rows() const { return m_rows; }
    int cols() const { return m_cols; }
    const GridCell* row(int r) const { return &grid()[physical(r) * m_cols]; }
    const GridCell& cell(int r, int c) const { return row(r)[c]; }
    QString rowText(int r) const; // trailing blanks trimmed
    bool rowWrapped(int r) const { return m_grids[m_alt].wrapped[physical(r)] != 0; }
    const TerminalScrollback& scrollback() const { return m_scrollback; }

    int cursorRow() const { return m_cursorRow; }
    int cursorCol() const { return m_cursorCol; }
    bool cursorVisible() const { return m_cursorVisible; }
    bool isAltScreen() const { return m_alt; }
    bool reverseVideo() const { return m_reverseVideo; }
    MouseMode mouseMode() const { return m_mouseMode; }
    CursorShape cursorShape() const { return m_cursorShape; }
    const CellAttr& pen() const { return m_pen; } // what the next glyph is written with
    QString title() const { return m_title; }

    // Rows changed since the last clearDamage(); every row after a scroll.
    bool hasDamage() const { return m_damaged; }
    bool rowDamaged(int r) const { return m_allDamaged || m_rowDamage[r] != 0; }
    void clearDamage();

private:
    struct Grid
    {
        std::vector<GridCell> cells;  // rows × cols, by physical row
        std::vector<uint16_t> extent; // per physical row: cells from the left that may show
        std::vector<int> map;         // screen row -> physical row; a scroll rotates this only
        std::vector<uint8_t> wrapped; // per physical row: its text ran on into the next row
    };
    friend struct ScreenCallbacks;

    const std::vector<GridCell>& grid() const { return m_grids[m_alt].cells; }
    Grid& active() { return m_grids[m_alt]; }
    int physical(int r) const { return m_grids[m_alt].map[r]; }
    GridCell* rowPtr(int r) { return &active().cells[physical(r) * m_cols]; }
    uint16_t& extentOf(int r) { return active().extent[physical(r)]; }

    void damageRow(int r);
    void damageAll();
    void cursorMoved(int row, int col);
    void putGlyph(const uint32_t* chars, int width, bool protectedCell, int r, int c);
    void scrollRect(int top, int bottom, int left, int right, int down, int rightward);
    void moveRect(int destTop, int destLeft, int top, int bottom, int left, int right);
    void erase(int top, int bottom, int left, int right, bool selective);
    void clearRow(int r, const CellAttr& pen);
    void setAltScreen(bool on);
    void resizeGrids(int rows, int cols, int* cursorRowDelta, int* cursorColDelta);
    void reflowPrimary(int rows, int cols, int* cursorRowDelta, int* cursorColDelta);
    static Grid blankGrid(int rows, int cols);
    bool atPhantom() const; // the cursor sits past a glyph written in the last column
    void pushRow(int r);

    // terminalscreen_text.cpp
    void text(std::string_view bytes);
    void control(unsigned char c);
    bool fastTextAllowed() const;
    bool fastCallOk(std::string_view call) const;
    bool replayable(char32_t base, char32_t mark) const;
    void fastCall(std::string_view call, char set);
    void putAscii(int row, int col, const unsigned char* bytes, int n, const char32_t* map,
                  bool protectedCell);
    void fastLinefeed(int& row);
    void vtScroll(int top, int bottom, int left, int right, int down, int rightward);
    void slowText(std::string_view bytes);
    void feed(const TerminalTokenizer::Token& token);
    void vtWrite(std::string_view bytes);
    void sync();
    int rowWidth(int row) const;
    void recheckDoubleWidth();

    VTerm* m_vt = nullptr;
    VTermState* m_state = nullptr;
    TerminalTokenizer m_tokenizer;
    VtermShadow m_shadow;
    bool m_fastPath = true;
    bool m_inSync = true;       // libvterm's cursor, pending wrap and last glyph are the shadow's
    bool m_replayGlyph = false; // the last glyph is the fast path's: libvterm must be given it
    bool m_syncing = false;     // libvterm is being brought in step: its callbacks change nothing
    bool m_dwlRecheck = false;
    // What libvterm did during one token: cursor moves, glyphs put, the last of them.
    int m_moves = 0;
    int m_glyphsPut = 0;
    VtermShadow::Glyph m_lastPut;
    std::string m_syncBytes;
    Listener m_listener;
    int m_rows;
    int m_cols;
    Grid m_grids[2];
    bool m_alt = false;
    TerminalScrollback m_scrollback;
    CellAttr m_pen;
    int m_cursorRow = 0;
    int m_cursorCol = 0;
    bool m_cursorVisible = true;
    bool m_reverseVideo = false;
    MouseMode m_mouseMode = MouseOff;
    CursorShape m_cursorShape = CursorBlock;
    QString m_title;
    // Soft wraps, which libvterm 0.1 does not report: a glyph written in the last column makes
    // its row a candidate; the next glyph at column 0 of the row below, with no cursor move
    // between (a CR LF moves it), marks the row wrapped.
    bool m_wrapCandidate = false;
    int m_wrapRow = 0;
    std::vector<uint8_t> m_rowDamage;
    bool m_damaged = true;
    bool m_allDamaged = true;
};

} // namespace lizard::terminal
