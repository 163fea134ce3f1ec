#pragma once
// The app's icons: one set drawn for lizard-desktop (resources/icons/lizard, SVG, named by the
// freedesktop Icon Naming Specification where a name fits, "lizard-…" for what it has no name
// for), found through QIcon::fromTheme. The set is the application's icon theme, so every
// action looks the same on every desktop and follows the colour scheme: a dark copy
// ("lizard-dark", made at build time from the same files) replaces it while the palette is dark.
// The desktop's own theme stays the fallback for names the set does not have (file types,
// dialogs' icons).

#include <QIcon>
#include <QString>

namespace lizard::ui {

class IconTheme
{
public:
    // Makes the set the application's icon theme (once; icon() calls it).
    static void install();
    // The dark or the light copy. Icons made by icon() before follow the change.
    static void setDark(bool dark);
    static bool isDark();
    // The set's icon of that name (a null icon for a name the set does not ship).
    static QIcon icon(const QString& name);
    // The set has an icon of that name (what a test checks every action against).
    static bool ships(const QString& name);
    // The icon theme of the desktop, the fallback for other names.
    static QString desktopTheme();
};

} // namespace lizard::ui
