#pragma once
// The application palettes of the two colour schemes, for when the platform's own palette is
// not the scheme the user wants (a dark scheme on a desktop whose Qt palette is light, or the
// other way round).

#include <QPalette>

namespace lizard::ui {

QPalette darkPalette();
QPalette lightPalette();
// Dark when the window colour is: what widgets and the platform's palette are judged by.
bool isDarkPalette(const QPalette& palette);

} // namespace lizard::ui
