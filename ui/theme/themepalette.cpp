#include "ui/theme/themepalette.h"

namespace lizard::ui {

namespace {

struct Base
{
    QColor window, text, base, alternateBase, button, highlight, highlightedText, link, linkVisited,
        placeholder, disabledText, toolTipBase;
};

QPalette make(const Base& b, bool dark)
{
    QPalette p;
    const auto all = [&p](QPalette::ColorRole role, const QColor& c) {
        p.setColor(QPalette::All, role, c);
    };
    all(QPalette::Window, b.window);
    all(QPalette::WindowText, b.text);
    all(QPalette::Base, b.base);
    all(QPalette::AlternateBase, b.alternateBase);
    all(QPalette::Button, b.button);
    all(QPalette::ButtonText, b.text);
    all(QPalette::Text, b.text);
    all(QPalette::BrightText, QColor(Qt::white));
    all(QPalette::Highlight, b.highlight);
    all(QPalette::HighlightedText, b.highlightedText);
    all(QPalette::Link, b.link);
    all(QPalette::LinkVisited, b.linkVisited);
    all(QPalette::ToolTipBase, b.toolTipBase);
    all(QPalette::ToolTipText, b.text);
    all(QPalette::PlaceholderText, b.placeholder);
    // The bevel shades Fusion draws frames, grooves and handles with, from the button colour.
    all(QPalette::Light, b.button.lighter(dark ? 135 : 150));
    all(QPalette::Midlight, b.button.lighter(dark ? 115 : 125));
    all(QPalette::Mid, b.button.darker(dark ? 120 : 130));
    all(QPalette::Dark, b.button.darker(dark ? 160 : 200));
    all(QPalette::Shadow, dark ? QColor(0x0c, 0x0d, 0x0f) : QColor(0x76, 0x76, 0x76));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, b.disabledText);
    p.setColor(QPalette::Disabled, QPalette::Highlight, b.button.darker(dark ? 100 : 115));
    p.setColor(QPalette::Disabled, QPalette::HighlightedText, b.disabledText);
    p.setColor(QPalette::Disabled, QPalette::Base, b.window);
    p.setColor(QPalette::Inactive, QPalette::Highlight, b.highlight.darker(dark ? 130 : 100));
    return p;
}

} // namespace

QPalette darkPalette()
{
    return make({QColor(0x2b, 0x2e, 0x33), QColor(0xe4, 0xe6, 0xea), QColor(0x1e, 0x20, 0x24),
                 QColor(0x25, 0x28, 0x2d), QColor(0x34, 0x38, 0x3e), QColor(0x35, 0x74, 0xc9),
                 QColor(0xff, 0xff, 0xff), QColor(0x6e, 0xa8, 0xf5), QColor(0xb5, 0x8c, 0xf0),
                 QColor(0x8b, 0x90, 0x97), QColor(0x7a, 0x7f, 0x87), QColor(0x34, 0x38, 0x3e)},
                true);
}

QPalette lightPalette()
{
    return make({QColor(0xef, 0xf0, 0xf1), QColor(0x1f, 0x23, 0x28), QColor(0xff, 0xff, 0xff),
                 QColor(0xf5, 0xf6, 0xf8), QColor(0xef, 0xf0, 0xf1), QColor(0x2f, 0x7b, 0xd8),
                 QColor(0xff, 0xff, 0xff), QColor(0x1a, 0x5f, 0xb4), QColor(0x7c, 0x3a, 0xa8),
                 QColor(0x6e, 0x77, 0x81), QColor(0x9a, 0x9e, 0xa5), QColor(0xff, 0xff, 0xff)},
                false);
}

bool isDarkPalette(const QPalette& palette)
{
    return palette.color(QPalette::Window).lightness() < 128;
}

} // namespace lizard::ui
