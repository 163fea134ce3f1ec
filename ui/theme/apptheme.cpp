#include "ui/theme/apptheme.h"

#include "ui/theme/icontheme.h"
#include "ui/theme/themepalette.h"

#include <QApplication>

namespace lizard::ui {

AppTheme* AppTheme::instance()
{
    static AppTheme* theme = [] {
        auto* t = new AppTheme;
        // Gone with the application, after every widget that follows it.
        t->setParent(qApp);
        return t;
    }();
    return theme;
}

AppTheme::AppTheme()
    : m_platformPalette(QApplication::palette()), m_platformDark(isDarkPalette(m_platformPalette)),
      m_dark(m_platformDark)
{
    IconTheme::setDark(m_dark);
}

void AppTheme::setChoice(Choice choice)
{
    m_choice = choice;
    apply();
}

void AppTheme::setSystemScheme(Scheme scheme)
{
    m_system = scheme;
    apply();
}

void AppTheme::apply()
{
    bool dark = m_platformDark;
    if (m_choice == Choice::Dark)
        dark = true;
    else if (m_choice == Choice::Light)
        dark = false;
    else if (m_system != Scheme::Unknown)
        dark = m_system == Scheme::Dark;
    // The platform's palette where it already is the wanted scheme (KDE's own dark colours, a
    // GTK theme's light ones); ours otherwise.
    const QPalette palette = dark == m_platformDark ? m_platformPalette
                             : dark                 ? darkPalette()
                                                    : lightPalette();
    if (dark == m_dark && palette == QApplication::palette())
        return;
    m_dark = dark;
    IconTheme::setDark(dark);
    QApplication::setPalette(palette);
    emit changed(dark);
}

QString AppTheme::choiceName(Choice choice)
{
    switch (choice) {
    case Choice::Light:
        return QStringLiteral("light");
    case Choice::Dark:
        return QStringLiteral("dark");
    case Choice::System:
        break;
    }
    return QStringLiteral("system");
}

AppTheme::Choice AppTheme::choiceFromName(const QString& name)
{
    if (name == QLatin1String("light"))
        return Choice::Light;
    if (name == QLatin1String("dark"))
        return Choice::Dark;
    return Choice::System;
}

} // namespace lizard::ui
