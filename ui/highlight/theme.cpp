#include "ui/highlight/theme.h"

#include <QGuiApplication>
#include <QPalette>

namespace lizard::ui::highlight {

namespace {

QTextCharFormat make(const QColor& colour, bool bold = false, bool italic = false)
{
    QTextCharFormat f;
    f.setForeground(colour);
    if (bold)
        f.setFontWeight(QFont::Bold);
    if (italic)
        f.setFontItalic(true);
    return f;
}

} // namespace

Theme::Theme(bool dark)
{
    auto set = [this](Token t, QTextCharFormat f) { m_formats[size_t(t)] = std::move(f); };
    // Colours close to JupyterLab's light and dark themes.
    set(Token::Keyword, make(dark ? QColor(0xc6, 0x78, 0xdd) : QColor(0x00, 0x80, 0x00), true));
    set(Token::Builtin, make(dark ? QColor(0x56, 0xb6, 0xc2) : QColor(0x00, 0x80, 0x00)));
    set(Token::Definition, make(dark ? QColor(0x61, 0xaf, 0xef) : QColor(0x00, 0x00, 0xff)));
    set(Token::String, make(dark ? QColor(0x98, 0xc3, 0x79) : QColor(0xba, 0x21, 0x21)));
    set(Token::Comment,
        make(dark ? QColor(0x7f, 0x84, 0x8e) : QColor(0x40, 0x80, 0x80), false, true));
    set(Token::Number, make(dark ? QColor(0xd1, 0x9a, 0x66) : QColor(0x08, 0x88, 0x58)));
    set(Token::Decorator, make(dark ? QColor(0xe5, 0xc0, 0x7b) : QColor(0xaa, 0x22, 0xff)));
    set(Token::Variable, make(dark ? QColor(0xe0, 0x6c, 0x75) : QColor(0x19, 0x17, 0x7c)));
    set(Token::Heading, make(dark ? QColor(0x61, 0xaf, 0xef) : QColor(0x00, 0x00, 0x80), true));
    set(Token::Emphasis,
        make(dark ? QColor(0xdc, 0xdf, 0xe4) : QColor(0x20, 0x20, 0x20), false, true));
    set(Token::Strong, make(dark ? QColor(0xdc, 0xdf, 0xe4) : QColor(0x20, 0x20, 0x20), true));
    set(Token::Code, make(dark ? QColor(0x98, 0xc3, 0x79) : QColor(0x7a, 0x3e, 0x9d)));
    set(Token::Link, make(dark ? QColor(0x61, 0xaf, 0xef) : QColor(0x00, 0x55, 0xaa)));
    set(Token::Quote,
        make(dark ? QColor(0x7f, 0x84, 0x8e) : QColor(0x60, 0x60, 0x60), false, true));
    set(Token::ListMarker, make(dark ? QColor(0xd1, 0x9a, 0x66) : QColor(0xaa, 0x55, 0x00), true));
    QTextCharFormat link = m_formats[size_t(Token::Link)];
    link.setFontUnderline(true);
    m_formats[size_t(Token::Link)] = link;
}

Theme Theme::forApplication()
{
    const QColor base = QGuiApplication::palette().color(QPalette::Base);
    return Theme(base.lightness() < 128);
}

} // namespace lizard::ui::highlight
