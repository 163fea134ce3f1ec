#include "ui/theme/icontheme.h"

#include <QFile>

namespace lizard::ui {

namespace {

const QString kLight = QStringLiteral("lizard");
const QString kDark = QStringLiteral("lizard-dark");

struct State
{
    bool installed = false;
    bool dark = false;
    QString desktopTheme;
};

State& state()
{
    static State s;
    return s;
}

} // namespace

void IconTheme::install()
{
    State& s = state();
    if (s.installed)
        return;
    s.installed = true;
    // What the platform chose (Breeze, Adwaita, hicolor without a desktop) answers the names
    // the set lacks; ":/icons", where the set lives, is on Qt's default search path.
    s.desktopTheme = QIcon::themeName();
    if (s.desktopTheme == kLight || s.desktopTheme == kDark)
        s.desktopTheme.clear();
    if (!QIcon::themeSearchPaths().contains(QStringLiteral(":/icons")))
        QIcon::setThemeSearchPaths(QIcon::themeSearchPaths() << QStringLiteral(":/icons"));
    QIcon::setFallbackThemeName(s.desktopTheme.isEmpty() ? QStringLiteral("hicolor")
                                                         : s.desktopTheme);
    QIcon::setThemeName(s.dark ? kDark : kLight);
}

void IconTheme::setDark(bool dark)
{
    install();
    State& s = state();
    if (s.dark == dark)
        return;
    s.dark = dark;
    // Icons from QIcon::fromTheme look themselves up again once the theme's name changed.
    QIcon::setThemeName(dark ? kDark : kLight);
}

bool IconTheme::isDark()
{
    return state().dark;
}

QIcon IconTheme::icon(const QString& name)
{
    install();
    // fromTheme would also try "lizard" for a missing "lizard-fork" (it drops dashed parts)
    // and the desktop's theme: a name the set lacks is a mistake, shown as no icon.
    if (!ships(name))
        return {};
    return QIcon::fromTheme(name);
}

bool IconTheme::ships(const QString& name)
{
    return !name.isEmpty() &&
           QFile::exists(QStringLiteral(":/icons/lizard/scalable/actions/%1.svg").arg(name));
}

QString IconTheme::desktopTheme()
{
    install();
    return state().desktopTheme;
}

} // namespace lizard::ui
