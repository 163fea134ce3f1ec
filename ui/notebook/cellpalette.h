#pragma once
// Colours and fonts of the widgets every cell has, set by palette rather than style sheet: a style
// sheet per widget re-polishes it and costs several times the widget itself, in every one of
// hundreds of cells, and a palette follows the light or dark scheme (AppTheme::follow).

#include <QColor>
#include <QFont>
#include <QPalette>
#include <QWidget>

namespace lizard::ui::notebook {

// Sets one colour of widget's palette, and nothing when it has it already (a palette change
// reaches every child and posts events to each).
inline void setPaletteColour(QWidget* widget, QPalette::ColorRole role, const QColor& colour)
{
    if (widget->palette().color(role) == colour)
        return;
    QPalette p = widget->palette();
    p.setColor(role, colour);
    widget->setPalette(p);
}

// font in the monospace family, at its own size (as CSS's font-family would).
inline QFont monospaced(QFont font)
{
    font.setFamily(QStringLiteral("monospace"));
    font.setStyleHint(QFont::Monospace);
    return font;
}

} // namespace lizard::ui::notebook
