#pragma once
// Whether the desktop wants light or dark applications, and when that changes. Qt 6.4 does not
// say (QStyleHints::colorScheme came with 6.5), so this asks where desktops keep it:
//  1. the XDG desktop portal's org.freedesktop.appearance color-scheme (GNOME, KDE, others with
//     xdg-desktop-portal), over D-Bus, followed through its SettingChanged signal;
//  2. when no portal answers or it has no preference: the GTK_THEME variable ("Adwaita:dark"),
//     KDE's kdeglobals (its colour scheme's name or window colour) and GTK's settings.ini
//     (gtk-application-prefer-dark-theme, a "-dark" theme), watched for changes.
// The answer goes to ui::AppTheme (DesktopApp wires it), which sets the palette.

#include "ui/theme/apptheme.h"

#include <QDBusConnection>
#include <QFileSystemWatcher>
#include <QObject>

class QDBusVariant;

namespace lizard::app {

class DesktopColorScheme : public QObject
{
    Q_OBJECT
public:
    using Scheme = ui::AppTheme::Scheme;

    // bus: where the portal is asked (the session bus; a test bus in tests). configHome: where
    // kdeglobals and gtk-*/settings.ini are ($XDG_CONFIG_HOME or ~/.config when empty).
    explicit DesktopColorScheme(const QDBusConnection& bus = QDBusConnection::sessionBus(),
                                const QString& configHome = {}, QObject* parent = nullptr);

    // Reads the files at once and asks the portal (its answer arrives later, as changed()).
    void start();
    Scheme scheme() const;
    // Where the answer came from: "portal", "GTK_THEME", "kdeglobals", "gtk settings.ini", or
    // "none" (for the log and the tests).
    QString source() const;

    // The fallbacks on their own (no D-Bus): what the files and GTK_THEME say.
    static Scheme fromFiles(const QString& configHome, const QString& gtkTheme,
                            const QString& currentDesktop, QString* source = nullptr);
    // The portal's value: 1 dark, 2 light, 0 (no preference) and anything else Unknown.
    static Scheme fromPortalValue(uint value);

signals:
    void changed(lizard::app::DesktopColorScheme::Scheme scheme);

private:
    // QDBusConnection::connect takes a slot by its signature only.
    Q_SLOT void onPortalSettingChanged(const QString& group, const QString& key,
                                       const QDBusVariant& value);
    void askPortal();
    void setPortalValue(const QVariant& value);
    void readFiles();
    void watchFiles();
    void update();

    QDBusConnection m_bus;
    QString m_configHome;
    QFileSystemWatcher m_watcher;
    Scheme m_portal = Scheme::Unknown;
    Scheme m_files = Scheme::Unknown;
    QString m_filesSource;
    Scheme m_last = Scheme::Unknown;
    bool m_started = false;
};

} // namespace lizard::app
