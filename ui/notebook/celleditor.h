#pragma once
// The source editor of one cell: a plain-text editor as tall as its text (the notebook scrolls,
// not the cell), syntax highlighted, with Python-style indentation: Enter keeps the line's
// indentation and adds a level after ':' (or '{' / '(' / '['), Tab inserts 4 spaces (indents
// the selected lines), Shift+Tab and Backspace in the indentation remove a level. The notebook's
// own keys (Shift/Ctrl/Alt+Enter, Esc, Up on the first line, Down on the last) are signals.
// Tab after a name (completion) and Shift+Tab after a name (help) are CellCompleter's, which
// filters the editor's keys first.

#include <QPlainTextEdit>

class QSyntaxHighlighter;

namespace lizard::ui::notebook {

class CellEditor : public QPlainTextEdit
{
    Q_OBJECT
public:
    enum class RunMode { Advance, InPlace, InsertBelow }; // Shift+, Ctrl+, Alt+Enter

    explicit CellEditor(QWidget* parent = nullptr);

    void setLanguage(const QString& language); // highlighter; "" for none
    QString language() const { return m_language; }
    static constexpr int indentWidth = 4;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return sizeHint(); }

signals:
    void runRequested(lizard::ui::notebook::CellEditor::RunMode mode);
    void escapePressed();
    void leaveUp();   // Up on the first line
    void leaveDown(); // Down on the last line
    void focused();

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void focusInEvent(QFocusEvent* event) override;

private:
    void newLineWithIndent();
    void indentSelection(bool dedent);
    bool backspaceIndent();
    void fitHeight();

    QString m_language;
    QSyntaxHighlighter* m_highlighter = nullptr;
};

} // namespace lizard::ui::notebook
