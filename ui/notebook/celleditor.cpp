#include "ui/notebook/celleditor.h"

#include "ui/highlight/highlighterfactory.h"

#include <QFontDatabase>
#include <QKeyEvent>
#include <QSyntaxHighlighter>
#include <QTextBlock>

namespace lizard::ui::notebook {

namespace {

QString leadingWhitespace(const QString& line)
{
    qsizetype i = 0;
    while (i < line.size() && (line[i] == u' ' || line[i] == u'\t'))
        ++i;
    return line.left(i);
}

} // namespace

CellEditor::CellEditor(QWidget* parent) : QPlainTextEdit(parent)
{
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setTabStopDistance(fontMetrics().horizontalAdvance(QString(indentWidth, u' ')));
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setLineWrapMode(QPlainTextEdit::WidgetWidth);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setTabChangesFocus(false);
    connect(this, &QPlainTextEdit::blockCountChanged, this, &CellEditor::fitHeight);
    connect(document(), &QTextDocument::contentsChanged, this, &CellEditor::fitHeight);
    fitHeight();
}

void CellEditor::setLanguage(const QString& language)
{
    if (language == m_language && (m_highlighter || language.isEmpty()))
        return;
    m_language = language;
    delete m_highlighter;
    m_highlighter = highlight::createHighlighter(document(), language);
}

QSize CellEditor::sizeHint() const
{
    int lines = 0;
    for (QTextBlock b = document()->firstBlock(); b.isValid(); b = b.next())
        lines += b.layout() && b.layout()->lineCount() > 0 ? b.layout()->lineCount() : 1;
    const int text = std::max(1, lines) * fontMetrics().lineSpacing();
    const int margins = int(2 * document()->documentMargin()) + 2 * frameWidth() +
                        contentsMargins().top() + contentsMargins().bottom() + 2;
    return {QPlainTextEdit::sizeHint().width(), text + margins};
}

void CellEditor::fitHeight()
{
    const int h = sizeHint().height();
    if (h != height())
        setFixedHeight(h);
}

void CellEditor::focusInEvent(QFocusEvent* event)
{
    QPlainTextEdit::focusInEvent(event);
    emit focused();
}

void CellEditor::keyPressEvent(QKeyEvent* event)
{
    const bool enter = event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter;
    const Qt::KeyboardModifiers mods = event->modifiers() & ~Qt::KeypadModifier;
    if (enter && mods == Qt::ShiftModifier) {
        emit runRequested(RunMode::Advance);
        return;
    }
    if (enter && mods == Qt::ControlModifier) {
        emit runRequested(RunMode::InPlace);
        return;
    }
    if (enter && mods == Qt::AltModifier) {
        emit runRequested(RunMode::InsertBelow);
        return;
    }
    if (enter && mods == Qt::NoModifier) {
        newLineWithIndent();
        return;
    }
    if (event->key() == Qt::Key_Escape) {
        emit escapePressed();
        return;
    }
    if (event->key() == Qt::Key_Tab && mods == Qt::NoModifier) {
        indentSelection(false);
        return;
    }
    if (event->key() == Qt::Key_Backtab) {
        indentSelection(true);
        return;
    }
    if (event->key() == Qt::Key_Backspace && mods == Qt::NoModifier && backspaceIndent())
        return;
    if (event->key() == Qt::Key_Up && mods == Qt::NoModifier && textCursor().blockNumber() == 0 &&
        !textCursor().hasSelection()) {
        emit leaveUp();
        return;
    }
    if (event->key() == Qt::Key_Down && mods == Qt::NoModifier &&
        textCursor().blockNumber() == document()->blockCount() - 1 &&
        !textCursor().hasSelection()) {
        emit leaveDown();
        return;
    }
    QPlainTextEdit::keyPressEvent(event);
}

void CellEditor::newLineWithIndent()
{
    QTextCursor cursor = textCursor();
    const QString before = cursor.block().text().left(cursor.positionInBlock());
    QString indent = leadingWhitespace(cursor.block().text());
    if (indent.size() > before.size())
        indent = before; // the cursor is inside the indentation
    const QString trimmed = before.trimmed();
    if (trimmed.endsWith(u':') || trimmed.endsWith(u'{') || trimmed.endsWith(u'(') ||
        trimmed.endsWith(u'['))
        indent += QString(indentWidth, u' ');
    cursor.beginEditBlock();
    cursor.removeSelectedText();
    cursor.insertText(u'\n' + indent);
    cursor.endEditBlock();
    setTextCursor(cursor);
    ensureCursorVisible();
}

void CellEditor::indentSelection(bool dedent)
{
    QTextCursor cursor = textCursor();
    if (!cursor.hasSelection() && !dedent) {
        const int column = cursor.positionInBlock();
        cursor.insertText(QString(indentWidth - column % indentWidth, u' '));
        return;
    }
    const int start = document()->findBlock(cursor.selectionStart()).blockNumber();
    const int end = document()->findBlock(cursor.selectionEnd()).blockNumber();
    cursor.beginEditBlock();
    for (int n = start; n <= end; ++n) {
        QTextBlock block = document()->findBlockByNumber(n);
        QTextCursor line(block);
        if (!dedent) {
            line.insertText(QString(indentWidth, u' '));
            continue;
        }
        const QString lead = leadingWhitespace(block.text());
        const int remove = std::min<int>(int(lead.size()), indentWidth);
        line.movePosition(QTextCursor::Right, QTextCursor::KeepAnchor, remove);
        line.removeSelectedText();
    }
    cursor.endEditBlock();
}

bool CellEditor::backspaceIndent()
{
    QTextCursor cursor = textCursor();
    if (cursor.hasSelection())
        return false;
    const int column = cursor.positionInBlock();
    const QString before = cursor.block().text().left(column);
    if (column == 0 || !before.trimmed().isEmpty() || before.contains(u'\t'))
        return false;
    const int remove = column % indentWidth == 0 ? indentWidth : column % indentWidth;
    cursor.movePosition(QTextCursor::Left, QTextCursor::KeepAnchor, remove);
    cursor.removeSelectedText();
    return true;
}

} // namespace lizard::ui::notebook
