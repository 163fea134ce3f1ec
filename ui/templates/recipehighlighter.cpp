#include "ui/templates/recipehighlighter.h"

#include <QRegularExpression>
#include <QTextDocument>

namespace lizard::ui {

using highlight::Token;

RecipeHighlighter::RecipeHighlighter(QTextDocument* document)
    : QSyntaxHighlighter(document), m_theme(highlight::Theme::forApplication())
{
}

void RecipeHighlighter::setErrorLine(int line)
{
    if (line == m_errorLine)
        return;
    const int old = m_errorLine;
    m_errorLine = line;
    for (int l : {old, line}) {
        if (l > 0)
            rehighlightBlock(document()->findBlockByNumber(l - 1));
    }
}

void RecipeHighlighter::highlightBlock(const QString& text)
{
    static const QRegularExpression key(QStringLiteral("^([a-z]+):"));
    static const QRegularExpression mapKey(
        QStringLiteral("^\\s+(?:- )?([^\\s:#'\"][^:#]*|'[^']*'|\"[^\"]*\"):(\\s|$)"));
    static const QRegularExpression dash(QStringLiteral("^\\s*(-)(\\s|$)"));
    static const QRegularExpression quoted(QStringLiteral("'[^']*'|\"(?:[^\"\\\\]|\\\\.)*\""));
    static const QRegularExpression comment(QStringLiteral("(^|\\s)(#.*)$"));
    if (auto m = key.match(text); m.hasMatch())
        setFormat(0, int(m.capturedLength(1)), m_theme.format(Token::Keyword));
    else if (auto k = mapKey.match(text); k.hasMatch())
        setFormat(int(k.capturedStart(1)), int(k.capturedLength(1)),
                  m_theme.format(Token::Definition));
    if (auto d = dash.match(text); d.hasMatch())
        setFormat(int(d.capturedStart(1)), 1, m_theme.format(Token::ListMarker));
    int commentAt = int(text.size());
    for (auto it = quoted.globalMatch(text); it.hasNext();) {
        const auto q = it.next();
        setFormat(int(q.capturedStart()), int(q.capturedLength()), m_theme.format(Token::String));
    }
    if (auto c = comment.match(text); c.hasMatch()) {
        // A '#' inside quotes is text: the comment starts at the first '#' outside them.
        int inQuote = 0;
        for (int i = 0; i < text.size(); ++i) {
            const QChar ch = text.at(i);
            if (inQuote == 0 && (ch == u'\'' || ch == u'"'))
                inQuote = ch.unicode();
            else if (inQuote != 0 && ch.unicode() == inQuote)
                inQuote = 0;
            else if (inQuote == 0 && ch == u'#' && (i == 0 || text.at(i - 1).isSpace())) {
                commentAt = i;
                break;
            }
        }
        if (commentAt < text.size())
            setFormat(commentAt, int(text.size()) - commentAt, m_theme.format(Token::Comment));
    }
    if (currentBlock().blockNumber() + 1 == m_errorLine) {
        for (int i = 0; i < qMax(1, int(text.size())); ++i) {
            QTextCharFormat f = format(i);
            f.setUnderlineStyle(QTextCharFormat::WaveUnderline);
            f.setUnderlineColor(Qt::red);
            setFormat(i, 1, f);
        }
    }
}

} // namespace lizard::ui
