#pragma once
// The built-in markdown highlighter: headings, emphasis, inline code and fenced code blocks
// (across lines), links, block quotes and list markers.

#include "ui/highlight/theme.h"

#include <QRegularExpression>
#include <QSyntaxHighlighter>

namespace lizard::ui::highlight {

class MarkdownHighlighter : public QSyntaxHighlighter
{
    Q_OBJECT
public:
    MarkdownHighlighter(QTextDocument* document, Theme theme);

protected:
    void highlightBlock(const QString& text) override;

private:
    enum State { Normal = -1, InFence = 1 };
    void applyInline(const QString& text, int from);
    void applyPattern(const QString& text, int from, const QRegularExpression& re, Token token);

    Theme m_theme;
    QRegularExpression m_fence{QStringLiteral("^\\s{0,3}(```|~~~)")};
    QRegularExpression m_heading{QStringLiteral("^\\s{0,3}#{1,6}(\\s|$)")};
    QRegularExpression m_quote{QStringLiteral("^\\s{0,3}>")};
    QRegularExpression m_list{QStringLiteral("^\\s*([-*+]|\\d+[.)])\\s")};
    QRegularExpression m_code{QStringLiteral("`[^`]+`")};
    QRegularExpression m_strong{QStringLiteral("(\\*\\*|__)(?=\\S)(.+?)(?<=\\S)\\1")};
    QRegularExpression m_emphasis{
        QStringLiteral("(?<![*_\\w])([*_])(?=\\S)(.+?)(?<=\\S)\\1(?![*_\\w])")};
    QRegularExpression m_link{QStringLiteral("!?\\[[^\\]]*\\]\\([^)]*\\)|<https?://[^>]+>")};
};

} // namespace lizard::ui::highlight
