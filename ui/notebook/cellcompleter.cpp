#include "ui/notebook/cellcompleter.h"

#include "notebook/ansihtml.h"
#include "ui/notebook/celleditor.h"
#include "ui/notebook/completionpopup.h"

#include <QKeyEvent>
#include <QRegularExpression>
#include <QSet>
#include <QTextBlock>
#include <QToolTip>

namespace lizard::ui::notebook {

using lizard::notebook::ansiToHtmlDocument;
using lizard::notebook::Completion;
using lizard::notebook::CompletionReply;
using lizard::notebook::stripAnsi;

bool isNameChar(QChar c)
{
    return c.isLetterOrNumber() || c == u'_';
}

namespace {

constexpr int kHelpLines = 40; // a docstring can be pages long; the tooltip shows its head

} // namespace

CellCompleter::CellCompleter(CellEditor* editor, lizard::notebook::NotebookDocument* document,
                             QObject* parent)
    : QObject(parent), m_editor(editor), m_document(document)
{
    editor->installEventFilter(this);
    connect(editor, &QPlainTextEdit::cursorPositionChanged, this, &CellCompleter::refilter);
}

CompletionPopup* CellCompleter::ensurePopup()
{
    // Made on the first completion: every cell has a completer, few cells ever show its popup,
    // and making one was a fifth of a cell's cost when a big notebook opens.
    if (m_popup == nullptr) {
        m_popup = new CompletionPopup(m_editor);
        connect(m_popup, &QListWidget::itemClicked, this, &CellCompleter::insertCurrent);
    }
    return m_popup;
}

CellCompleter::~CellCompleter() = default;

bool CellCompleter::isPopupVisible() const
{
    return m_popup != nullptr && m_popup->isVisible();
}

bool CellCompleter::cursorAfterName() const
{
    const QTextCursor cursor = m_editor->textCursor();
    if (cursor.hasSelection() || cursor.positionInBlock() == 0)
        return false;
    const QChar before = cursor.block().text().at(cursor.positionInBlock() - 1);
    return isNameChar(before) || before == u'.';
}

bool CellCompleter::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_editor && event->type() == QEvent::KeyPress)
        return handleKey(static_cast<QKeyEvent*>(event));
    if (watched == m_editor && event->type() == QEvent::FocusOut)
        closePopup();
    return QObject::eventFilter(watched, event);
}

bool CellCompleter::handleKey(QKeyEvent* event)
{
    const Qt::KeyboardModifiers mods = event->modifiers() & ~Qt::KeypadModifier;
    const int key = event->key();
    if (isPopupVisible()) {
        const bool enter = key == Qt::Key_Return || key == Qt::Key_Enter;
        if (mods == Qt::NoModifier && (enter || key == Qt::Key_Tab)) {
            insertCurrent();
            return true;
        }
        if (key == Qt::Key_Escape) { // closes the popup only; edit mode stays
            closePopup();
            return true;
        }
        if (mods == Qt::NoModifier && (key == Qt::Key_Up || key == Qt::Key_Down ||
                                       key == Qt::Key_PageUp || key == Qt::Key_PageDown)) {
            const int page = 9;
            m_popup->moveSelection(key == Qt::Key_Up       ? -1
                                   : key == Qt::Key_Down   ? 1
                                   : key == Qt::Key_PageUp ? -page
                                                           : page);
            return true;
        }
        if (enter) // Shift/Ctrl/Alt+Enter run the cell: the popup goes
            closePopup();
        return false; // typing goes on in the editor; refilter() follows the cursor
    }
    const QString language = m_editor->language();
    const bool completes =
        language == u"python" || language == u"javascript" || language == u"bash";
    if (key == Qt::Key_Tab && mods == Qt::NoModifier && completes && cursorAfterName()) {
        requestCompletion();
        return true;
    }
    if (key == Qt::Key_Backtab && language == u"python" && cursorAfterName()) {
        requestHelp();
        return true;
    }
    return false;
}

void CellCompleter::requestCompletion()
{
    const quint64 generation = ++m_generation;
    const QString code = m_editor->toPlainText();
    const int cursor = m_editor->textCursor().position();
    m_requestCursor = cursor;
    // Accepted only if the user has, meanwhile, at most typed more of the name.
    auto apply = [this, generation, code, cursor](std::optional<CompletionReply> reply) {
        if (generation != m_generation || !reply || reply->matches.isEmpty())
            return;
        const QString now = m_editor->toPlainText();
        const int at = m_editor->textCursor().position();
        if (at < cursor || now.left(cursor) != code.left(cursor) || now.mid(at) != code.mid(cursor))
            return;
        for (const QChar c : now.mid(cursor, at - cursor)) {
            if (!isNameChar(c))
                return;
        }
        showCompletions(*reply);
    };
    const QString language = m_editor->language();
    if (language == u"python") {
        if (m_runner)
            m_runner->complete(code, cursor, this, apply);
    } else {
        apply(wordCompletions(code, cursor)); // no kernel state: the notebook's own words
    }
}

CompletionReply CellCompleter::wordCompletions(const QString& code, int cursor) const
{
    int start = cursor;
    while (start > 0 && isNameChar(code[start - 1]))
        --start;
    const QString prefix = code.mid(start, cursor - start);
    QStringList sources{code.left(start) + code.mid(cursor)}; // the word being typed is no match
    if (m_document) {
        for (int i = 0; i < m_document->cellCount(); ++i) {
            if (m_document->cell(i)->source() != code)
                sources << m_document->cell(i)->source();
        }
    }
    static const QRegularExpression word(QStringLiteral("[A-Za-z_][A-Za-z0-9_]*"));
    QSet<QString> seen;
    CompletionReply reply{start, cursor, {}};
    for (const QString& text : sources) {
        for (auto it = word.globalMatch(text); it.hasNext();) {
            const QString w = it.next().captured();
            if (w.size() > prefix.size() && w.startsWith(prefix) && !seen.contains(w)) {
                seen.insert(w);
                reply.matches.append({w, QStringLiteral("word")});
            }
        }
    }
    std::sort(reply.matches.begin(), reply.matches.end(),
              [](const Completion& a, const Completion& b) { return a.text < b.text; });
    return reply;
}

void CellCompleter::showCompletions(const CompletionReply& reply)
{
    m_start = reply.start;
    m_end = reply.end - m_requestCursor; // text after the request's cursor that a match replaces
    ensurePopup()->setMatches(reply.matches);
    m_popup->setCurrentRow(0);
    const int at = m_editor->textCursor().position();
    if (m_start < 0 || m_start > at ||
        !m_popup->filter(m_editor->toPlainText().mid(m_start, at - m_start)))
        return;
    QTextCursor startCursor = m_editor->textCursor();
    startCursor.setPosition(m_start);
    m_popup->showAt(
        m_editor->viewport()->mapToGlobal(m_editor->cursorRect(startCursor).bottomLeft()));
}

void CellCompleter::refilter()
{
    if (!isPopupVisible())
        return;
    const int at = m_editor->textCursor().position();
    const QString typed = m_editor->toPlainText().mid(m_start, at - m_start);
    if (at < m_start ||
        std::any_of(typed.begin(), typed.end(), [](QChar c) { return c.isSpace(); }) ||
        !m_popup->filter(typed))
        closePopup();
}

void CellCompleter::insertCurrent()
{
    const QString match = m_popup != nullptr ? m_popup->currentMatch() : QString();
    closePopup();
    if (match.isEmpty())
        return;
    QTextCursor cursor = m_editor->textCursor();
    const int at = cursor.position();
    const int end = std::clamp(at + std::max(0, m_end), at, int(m_editor->toPlainText().size()));
    cursor.setPosition(m_start);
    cursor.setPosition(end, QTextCursor::KeepAnchor);
    cursor.insertText(match);
    m_editor->setTextCursor(cursor);
}

void CellCompleter::closePopup()
{
    ++m_generation; // an answer still on its way is for a popup that is gone
    if (m_popup != nullptr)
        m_popup->hide();
}

void CellCompleter::requestHelp()
{
    if (!m_runner)
        return;
    const quint64 generation = ++m_generation;
    const QString code = m_editor->toPlainText();
    const int cursor = m_editor->textCursor().position();
    m_runner->inspect(
        code, cursor, this, [this, generation, code, cursor](std::optional<QString> text) {
            if (generation != m_generation || !text || m_editor->toPlainText() != code ||
                m_editor->textCursor().position() != cursor)
                return;
            QStringList lines = text->split(u'\n');
            if (lines.size() > kHelpLines) {
                lines = lines.mid(0, kHelpLines);
                lines << QStringLiteral("…");
            }
            const QString shown = lines.join(u'\n');
            m_help = stripAnsi(shown);
            QToolTip::showText(
                m_editor->viewport()->mapToGlobal(m_editor->cursorRect().bottomLeft()),
                ansiToHtmlDocument(shown), m_editor);
            emit helpShown(m_help);
            emit helpShownAnsi(*text);
        });
}

} // namespace lizard::ui::notebook
