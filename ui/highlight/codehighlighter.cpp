#include "ui/highlight/codehighlighter.h"

namespace lizard::ui::highlight {

namespace {

bool isIdentStart(QChar c)
{
    return c.isLetter() || c == u'_' || (c == u'$');
}
bool isIdentPart(QChar c)
{
    return c.isLetterOrNumber() || c == u'_' || c == u'$';
}

bool isPythonStringPrefix(const QString& word)
{
    static const QSet<QString> prefixes = {"r", "b", "f", "u", "rb", "br", "fr", "rf"};
    return word.size() <= 2 && prefixes.contains(word.toLower());
}

} // namespace

CodeHighlighter::CodeHighlighter(QTextDocument* document, Language language, Theme theme)
    : QSyntaxHighlighter(document), m_language(language), m_theme(std::move(theme))
{
}

void CodeHighlighter::apply(int start, int end, Token token)
{
    if (end > start)
        setFormat(start, end - start, m_theme.format(token));
}

int CodeHighlighter::scanQuoted(const QString& text, int from, QChar quote, bool escapes) const
{
    // from is just after the opening quote; returns the index after the closing one, or -1.
    for (int i = from; i < text.size(); ++i) {
        if (escapes && text[i] == u'\\') {
            ++i;
            continue;
        }
        if (text[i] == quote)
            return i + 1;
    }
    return -1;
}

int CodeHighlighter::continueOpen(const QString& text, int from, State state)
{
    int end = -1;
    switch (state) {
    case TripleDouble:
    case TripleSingle: {
        const QString delim =
            state == TripleDouble ? QStringLiteral("\"\"\"") : QStringLiteral("'''");
        for (int i = from; i < text.size(); ++i) {
            if (text[i] == u'\\') {
                ++i;
                continue;
            }
            if (text.mid(i, 3) == delim) {
                end = i + 3;
                break;
            }
        }
        break;
    }
    case BlockComment: {
        const int close = text.indexOf(QStringLiteral("*/"), from);
        end = close < 0 ? -1 : close + 2;
        break;
    }
    case Template:
        end = scanQuoted(text, from, u'`', true);
        break;
    case ShellSingle:
        end = scanQuoted(text, from, u'\'', false);
        break;
    case ShellDouble:
        end = scanQuoted(text, from, u'"', true);
        break;
    case Normal:
        return from;
    }
    const Token token = state == BlockComment ? Token::Comment : Token::String;
    if (end < 0) {
        apply(from, int(text.size()), token);
        setCurrentBlockState(state);
        return int(text.size());
    }
    apply(from, end, token);
    return end;
}

int CodeHighlighter::scanNumber(const QString& text, int from) const
{
    int i = from;
    if (text[i] == u'0' && i + 1 < text.size() && QStringLiteral("xXoObB").contains(text[i + 1])) {
        i += 2;
        while (i < text.size() && (text[i].isLetterOrNumber() || text[i] == u'_'))
            ++i;
        return i;
    }
    while (i < text.size()) {
        const QChar c = text[i];
        if (c.isDigit() || c == u'_' || c == u'.') {
            ++i;
        } else if ((c == u'e' || c == u'E') && i + 1 < text.size() &&
                   (text[i + 1].isDigit() || text[i + 1] == u'-' || text[i + 1] == u'+')) {
            i += 2;
        } else {
            break;
        }
    }
    if (i < text.size() && (text[i] == u'j' || text[i] == u'J' || text[i] == u'n'))
        ++i; // Python imaginary, JavaScript BigInt
    return i;
}

int CodeHighlighter::scanShellVariable(const QString& text, int from) const
{
    // from points at '$'.
    int i = from + 1;
    if (i >= text.size())
        return i;
    if (text[i] == u'{') {
        const int close = text.indexOf(u'}', i);
        return close < 0 ? int(text.size()) : close + 1;
    }
    if (text[i].isDigit() || QStringLiteral("?#@*!$-").contains(text[i]))
        return i + 1;
    while (i < text.size() && (text[i].isLetterOrNumber() || text[i] == u'_'))
        ++i;
    return i;
}

void CodeHighlighter::highlightBlock(const QString& text)
{
    setCurrentBlockState(Normal);
    const WordLists& lists = wordLists(m_language);
    const bool py = m_language == Language::Python;
    const bool js = m_language == Language::JavaScript;
    const bool sh = m_language == Language::Bash;

    int i = 0;
    const int prev = previousBlockState();
    if (prev > 0)
        i = continueOpen(text, 0, State(prev));

    bool nextIsDefinition = false;
    const int n = int(text.size());
    while (i < n) {
        const QChar c = text[i];
        // Comments.
        if ((py && c == u'#') || (sh && c == u'#' && (i == 0 || text[i - 1].isSpace())) ||
            (js && c == u'/' && i + 1 < n && text[i + 1] == u'/')) {
            apply(i, n, Token::Comment);
            return;
        }
        if (js && c == u'/' && i + 1 < n && text[i + 1] == u'*') {
            const int start = i;
            i = continueOpen(text, i + 2, BlockComment);
            apply(start, i, Token::Comment);
            continue;
        }
        // Python decorators: '@' starting a line's code.
        if (py && c == u'@' && text.left(i).trimmed().isEmpty()) {
            int j = i + 1;
            while (j < n && (isIdentPart(text[j]) || text[j] == u'.'))
                ++j;
            apply(i, j, Token::Decorator);
            i = j;
            continue;
        }
        // Strings.
        if (c == u'"' || c == u'\'' || (js && c == u'`')) {
            const int start = i;
            if (py && text.mid(i, 3) == QString(3, c)) {
                const int end = continueOpen(text, i + 3, c == u'"' ? TripleDouble : TripleSingle);
                apply(start, end, Token::String);
                i = end;
                continue;
            }
            if (js && c == u'`') {
                const int end = continueOpen(text, i + 1, Template);
                apply(start, end, Token::String);
                i = end;
                continue;
            }
            if (sh) {
                const int end = continueOpen(text, i + 1, c == u'"' ? ShellDouble : ShellSingle);
                apply(start, end, Token::String);
                i = end;
                continue;
            }
            const int end = scanQuoted(text, i + 1, c, true);
            i = end < 0 ? n : end;
            apply(start, i, Token::String);
            continue;
        }
        if (sh && c == u'$') {
            const int end = scanShellVariable(text, i);
            apply(i, end, Token::Variable);
            i = end;
            continue;
        }
        if (c.isDigit() && (i == 0 || !isIdentPart(text[i - 1]))) {
            const int end = scanNumber(text, i);
            apply(i, end, Token::Number);
            i = end;
            continue;
        }
        if (isIdentStart(c) && !(sh && c == u'$')) {
            int j = i + 1;
            while (j < n && (isIdentPart(text[j]) || (sh && text[j] == u'-')))
                ++j;
            const QString word = text.mid(i, j - i);
            if (py && j < n && (text[j] == u'"' || text[j] == u'\'') &&
                isPythonStringPrefix(word)) {
                i = j; // the prefix is part of the string that follows
                apply(i - int(word.size()), i, Token::String);
                continue;
            }
            const bool attribute = i > 0 && text[i - 1] == u'.';
            if (nextIsDefinition) {
                apply(i, j, Token::Definition);
                nextIsDefinition = false;
            } else if (!attribute && lists.keywords.contains(word)) {
                apply(i, j, Token::Keyword);
                nextIsDefinition = lists.definers.contains(word);
            } else if (!attribute && lists.builtins.contains(word)) {
                apply(i, j, Token::Builtin);
            }
            i = j;
            continue;
        }
        if (!c.isSpace())
            nextIsDefinition = false;
        ++i;
    }
}

} // namespace lizard::ui::highlight
