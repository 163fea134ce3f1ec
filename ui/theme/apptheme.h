#pragma once
// The app's colour scheme, light or dark: the desktop's (what app/desktopcolorscheme.h reads
// from the XDG desktop portal, GTK or KDE, live) unless Lizard ▸ Preferences forces one. It sets
// the application's palette and icon theme; the widgets that paint colours of their own (cells,
// outputs, the terminal, banners…) take them in follow(), which runs again on every change.

#include <QObject>
#include <QPalette>

namespace lizard::ui {

class AppTheme : public QObject
{
    Q_OBJECT
public:
    // Lizard ▸ Preferences ▸ Appearance.
    enum class Choice { System, Light, Dark };
    Q_ENUM(Choice)
    // What the desktop says; Unknown: nothing said, the platform's palette decides.
    enum class Scheme { Unknown, Light, Dark };
    Q_ENUM(Scheme)

    // The application's (made on first use, after QApplication).
    static AppTheme* instance();

    void setChoice(Choice choice);
    Choice choice() const { return m_choice; }
    void setSystemScheme(Scheme scheme);
    Scheme systemScheme() const { return m_system; }
    bool isDark() const { return m_dark; }

    // Runs apply now and after every change of the scheme while context lives.
    template <typename Apply> static void follow(QObject* context, Apply apply)
    {
        apply();
        connect(instance(), &AppTheme::changed, context, apply);
    }

    // "system", "light", "dark": how settings store a choice (anything else reads as System).
    static QString choiceName(Choice choice);
    static Choice choiceFromName(const QString& name);

signals:
    // After the palette and the icon theme changed.
    void changed(bool dark);

private:
    AppTheme();
    void apply();

    Choice m_choice = Choice::System;
    Scheme m_system = Scheme::Unknown;
    QPalette m_platformPalette; // as the platform gave it, before any of ours
    bool m_platformDark = false;
    bool m_dark = false;
};

} // namespace lizard::ui
