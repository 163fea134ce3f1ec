#include "ui/highlight/markdownhighlighter.h"

namespace lizard::ui::highlight {

MarkdownHighlighter::MarkdownHighlighter(QTextDocument* document, Theme theme)
    : QSyntaxHighlighter(document), m_theme(std::move(theme))
{
}

void MarkdownHighlighter::applyPattern(const QString& text, int from, const QRegularExpression& re,
                                       Token token)
{
    auto it = re.globalMatch(text, from);
    while (it.hasNext()) {
        const auto m = it.next();
        setFormat(int(m.capturedStart()), int(m.capturedLength()), m_theme.format(token));
    }
}

void MarkdownHighlighter::applyInline(const QString& text, int from)
{
    applyPattern(text, from, m_emphasis, Token::Emphasis);
    applyPattern(text, from, m_strong, Token::Strong);
    applyPattern(text, from, m_link, Token::Link);
    applyPattern(text, from, m_code, Token::Code); // last: nothing is emphasised inside code
}

void MarkdownHighlighter::highlightBlock(const QString& text)
{
    const bool inFence = previousBlockState() == InFence;
    if (m_fence.match(text).hasMatch()) {
        setFormat(0, int(text.size()), m_theme.format(Token::Code));
        setCurrentBlockState(inFence ? Normal : InFence);
        return;
    }
    if (inFence) {
        setFormat(0, int(text.size()), m_theme.format(Token::Code));
        setCurrentBlockState(InFence);
        return;
    }
    setCurrentBlockState(Normal);
    if (m_heading.match(text).hasMatch()) {
        setFormat(0, int(text.size()), m_theme.format(Token::Heading));
        applyPattern(text, 0, m_code, Token::Code);
        return;
    }
    if (const auto q = m_quote.match(text); q.hasMatch()) {
        setFormat(0, int(text.size()), m_theme.format(Token::Quote));
        return;
    }
    int from = 0;
    if (const auto l = m_list.match(text); l.hasMatch()) {
        setFormat(int(l.capturedStart(1)), int(l.capturedLength(1)),
                  m_theme.format(Token::ListMarker));
        from = int(l.capturedEnd());
    }
    applyInline(text, from);
}

} // namespace lizard::ui::highlight
