#pragma once
// Tab completion and Shift+Tab help for one cell editor, as in JupyterLab. Tab after an
// identifier character or a dot asks for completions: in Python, the kernel (through the
// notebook's CodeRunner, asynchronously: typing never waits, and an answer that arrives after
// the text before the cursor changed is dropped); in bash and javascript (no kernel state),
// the words of the notebook's own cells. The popup filters as you type; Enter or Tab inserts,
// Esc closes. Tab anywhere else still indents. Shift+Tab after a name shows the kernel's
// signature and docstring in a tooltip (with a selection or in the indentation it dedents).

#include "notebook/coderunner.h"
#include "notebook/notebookdocument.h"

#include <QObject>
#include <QPointer>

class QKeyEvent;

namespace lizard::ui::notebook {

class CellEditor;
class CompletionPopup;

bool isNameChar(QChar c); // a letter, digit or underscore: part of a Python name

class CellCompleter : public QObject
{
    Q_OBJECT
public:
    CellCompleter(CellEditor* editor, lizard::notebook::NotebookDocument* document,
                  QObject* parent = nullptr);
    ~CellCompleter() override;

    void setRunner(lizard::notebook::CodeRunner* runner) { m_runner = runner; }
    CompletionPopup* popup() const { return m_popup; } // null until the first completion
    bool isPopupVisible() const;
    QString helpText() const { return m_help; } // the last help shown (plain text)

    // Tab's and Shift+Tab's work, also for tests and menus.
    void requestCompletion();
    void requestHelp();

signals:
    void helpShown(const QString& plainText);
    void helpShownAnsi(const QString& ansiText); // the same help with the kernel's colours

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    bool handleKey(QKeyEvent* event);
    bool cursorAfterName() const; // an identifier character or a dot before the cursor
    void showCompletions(const lizard::notebook::CompletionReply& reply);
    void refilter();
    void insertCurrent();
    void closePopup();
    lizard::notebook::CompletionReply wordCompletions(const QString& code, int cursor) const;
    CompletionPopup* ensurePopup();

    CellEditor* m_editor;
    QPointer<lizard::notebook::NotebookDocument> m_document;
    QPointer<lizard::notebook::CodeRunner> m_runner;
    CompletionPopup* m_popup = nullptr;
    quint64 m_generation = 0; // only the latest request's answer counts
    int m_start = -1;         // where the popup's matches go in the text
    int m_end = -1;           // the end of the replaced text, relative to the request's cursor
    int m_requestCursor = -1;
    QString m_help;
};

} // namespace lizard::ui::notebook
