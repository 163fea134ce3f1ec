#pragma once
// The character formats the built-in highlighters use, one per kind of token, with a light and
// a dark variant (picked from the application palette's base colour).

#include <QTextCharFormat>
#include <array>

namespace lizard::ui::highlight {

enum class Token {
    Keyword,
    Builtin,
    Definition, // the name after def/class/function
    String,
    Comment,
    Number,
    Decorator,
    Variable, // shell $NAME
    Heading,
    Emphasis,
    Strong,
    Code,
    Link,
    Quote,
    ListMarker,
    Count
};

class Theme
{
public:
    explicit Theme(bool dark);
    static Theme forApplication(); // dark when the palette's base colour is dark

    const QTextCharFormat& format(Token token) const { return m_formats[size_t(token)]; }

private:
    std::array<QTextCharFormat, size_t(Token::Count)> m_formats;
};

} // namespace lizard::ui::highlight
