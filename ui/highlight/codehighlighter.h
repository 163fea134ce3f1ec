#pragma once
// The built-in highlighter for python, javascript and bash: keywords, builtins, defined names,
// strings (Python's triple-quoted and prefixed ones, JavaScript template literals, multi-line
// shell quotes), comments (JavaScript block comments across lines), numbers, Python decorators
// and shell variables. A small scanner rather than regexes, so a '#' inside a string is not a
// comment and a quote inside a comment opens nothing.

#include "ui/highlight/theme.h"

#include <QSet>
#include <QString>
#include <QSyntaxHighlighter>

namespace lizard::ui::highlight {

// The languages it knows, and their names.
enum class Language { None, Python, JavaScript, Bash, Markdown };

// "python"/"py"/"python3"/"ipython" -> Python, "javascript"/"js"/"node" -> JavaScript,
// "bash"/"sh"/"shell"/"zsh" -> Bash, "markdown"/"md" -> Markdown; anything else -> None.
Language languageFromName(const QString& name);
QString languageName(Language language); // canonical lower-case name; empty for None
// By suffix (".py", ".js", ".mjs", ".cjs", ".ts" is not JavaScript, ".sh", ".bash", ".md", …)
// and a few well-known file names (".bashrc", ".profile").
Language languageFromFileName(const QString& path);

// The keyword and builtin word lists of each language (codehighlighter_words.cpp).
struct WordLists
{
    QSet<QString> keywords;
    QSet<QString> builtins;
    QSet<QString> definers; // keywords followed by a name being defined (def, class, function)
};

const WordLists& wordLists(Language language);

class CodeHighlighter : public QSyntaxHighlighter
{
    Q_OBJECT
public:
    CodeHighlighter(QTextDocument* document, Language language, Theme theme);

    Language language() const { return m_language; }

protected:
    void highlightBlock(const QString& text) override;

private:
    // Block states: what the previous line left open.
    enum State {
        Normal = -1,
        TripleDouble = 1,
        TripleSingle,
        BlockComment,
        Template,
        ShellSingle,
        ShellDouble
    };

    // Continues an open construct from `from`; returns where it ends (text.size() if it does not).
    int continueOpen(const QString& text, int from, State state);
    int scanQuoted(const QString& text, int from, QChar quote, bool escapes) const;
    int scanNumber(const QString& text, int from) const;
    int scanShellVariable(const QString& text, int from) const;
    void apply(int start, int end, Token token);

    Language m_language;
    Theme m_theme;
};

} // namespace lizard::ui::highlight
