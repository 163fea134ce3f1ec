#pragma once
// The cells of a notebook as a scrolling column, with JupyterLab's two modes. In edit mode the
// current cell's editor has the keyboard; in command mode this widget does:
//   Enter edit · A/B insert above/below · D D delete · Z undo delete · M/Y markdown/code ·
//   Up/Down (K/J) move · Shift+Enter run and advance · Ctrl+Enter run · Alt+Enter run, insert.
// Esc in the editor returns to command mode.
// The current cell is scrolled into view whenever it changes (runs, advances, inserts, moves).
// While a cell runs, the view follows the end of its output the way a terminal does: scrolling
// away stops that, scrolling back to the end (or running a cell) resumes it. When the run ends
// the view is brought to the cell's end (and the current cell) once; after that only the user
// scrolls, however the finished cell's outputs change height.
// A notebook's cell widgets are made a few at a time: those of the first screen at once, the
// rest in slices of a few milliseconds while the event loop turns, so opening a notebook of
// hundreds of cells never holds the window up. A cell asked for before its turn (cellWidget(),
// going to it) is made at once, with those before it.

#include "notebook/notebookdocument.h"
#include "notebook/runqueue.h"
#include "ui/notebook/celleditor.h"

#include <QElapsedTimer>
#include <QPointer>
#include <QScrollArea>

namespace lizard::ui::notebook {

class CellColumnLayout;
class CellWidget;

class CellListWidget : public QScrollArea
{
    Q_OBJECT
public:
    enum class Mode { Command, Edit };

    explicit CellListWidget(lizard::notebook::NotebookDocument* document,
                            QWidget* parent = nullptr);

    void setRunQueue(lizard::notebook::RunQueue* queue) { m_queue = queue; }
    // Where Tab completion and Shift+Tab help ask the kernel (CellCompleter).
    void setRunner(lizard::notebook::CodeRunner* runner);
    lizard::notebook::CodeRunner* runner() const { return m_runner; }
    void setCodeLanguage(const QString& language);
    QString codeLanguage() const { return m_language; }

    int count() const; // the document's cells, made or not yet
    // Makes the cell's widget (and those before it) if it is not made yet.
    CellWidget* cellWidget(int index) const;
    // The cell's widget if it is made (null otherwise): for what only concerns cells on screen.
    CellWidget* madeCellWidget(int index) const
    {
        return index >= 0 && index < m_widgets.size() ? m_widgets[index] : nullptr;
    }
    // Whether every cell's widget is made.
    bool isComplete() const;
    int currentIndex() const { return m_current; }
    CellWidget* currentWidget() const { return cellWidget(m_current); }
    Mode mode() const { return m_mode; }

    void setCurrentIndex(int index); // keeps the mode (edit mode moves the keyboard along)
    void enterEditMode();
    void enterCommandMode();

    // The commands behind the keys (and the toolbar).
    void runCurrent(CellEditor::RunMode mode);
    void runAll();
    void insertCell(bool below);
    void deleteCurrent();
    void undoDelete();
    void setCurrentType(lizard::notebook::CellType type);

    // Whether the view follows a running cell's output (see above).
    bool isFollowingOutput() const { return m_follow && !m_followed.isNull(); }

signals:
    void currentChanged(int index);
    void completed(); // the last cell's widget was made
    void modeChanged(lizard::ui::notebook::CellListWidget::Mode mode);

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void focusInEvent(QFocusEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void rebuild();
    // Makes the widgets of the cells up to `last` (the document's index) that are not made yet.
    void makeUpTo(int last);
    friend class CellSlices;
    void makeSlice();           // for a few milliseconds; CellSlices calls it again while need be
    void makeNext();            // the widget of the first cell without one
    void forgetFrom(int index); // drops the widgets from `index` on: made again in turn
    void stopMakingIfDone();    // a cell removed before its widget was made may end the making
    // Asks for slices while widgets are missing and the list is shown: a hidden list (a file
    // being opened, a tab in the background) makes nothing, since being shown would then lay out
    // and paint all it made in one turn; cellWidget() still makes what is asked for.
    void wantSlices();
    void insertWidget(int index);
    void removeWidget(int index);
    void moveWidget(int from, int to);
    void connectWidget(CellWidget* widget);
    void updateSelection();
    void runCell(int index);
    void revealCurrent(); // once the layout has placed the cells
    void followRunningOutput();
    void onRangeChanged();
    void finishFollowing(CellWidget* widget); // its run ended: its end in view once, then stop
    void onUserScrolled();
    void scrollTo(int value);

    QPointer<lizard::notebook::NotebookDocument> m_document;
    QPointer<lizard::notebook::RunQueue> m_queue;
    QPointer<lizard::notebook::CodeRunner> m_runner;
    QString m_language = QStringLiteral("python");
    QWidget* m_container;
    CellColumnLayout* m_layout;
    QList<CellWidget*> m_widgets; // of the document's first cells, in its order
    int m_current = -1;
    Mode m_mode = Mode::Command;
    QElapsedTimer m_lastD; // D D within a short time deletes
    bool m_follow = true;
    // The cell whose output the view follows: the running one, until its run ends or the user
    // goes elsewhere.
    QPointer<CellWidget> m_followed;
    bool m_advancing = false; // inside runCurrent(): moving on keeps m_followed
    bool m_revealPending = false;
    // The current cell was just revealed and the user has not scrolled since: cells that take
    // their final height later (editors fit their text when first laid out) keep it revealed.
    bool m_keepRevealed = false;
    bool m_userScroll = false; // the next value change comes from the user (wheel, bar, keys)
};

} // namespace lizard::ui::notebook
