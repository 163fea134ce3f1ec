#pragma once
// Connection profiles and the active one, kept in QSettings. The built-in Local profile is
// always there. API keys are not stored here (see KeyStore).

#include "models/connectionprofile.h"

#include <QList>
#include <QSettings>
#include <memory>

namespace lizard::app {

class SettingsStore
{
public:
    SettingsStore();                                // the app's QSettings
    explicit SettingsStore(const QString& iniPath); // a given file (tests)

    QList<models::ConnectionProfile> profiles() const; // Local first
    void setProfiles(const QList<models::ConnectionProfile>& profiles);
    QString activeId() const; // "local" unless set
    void setActiveId(const QString& id);
    models::ConnectionProfile activeProfile() const;
    // Lifetime of the sandbox "New notebook" makes (Lizard ▸ Preferences…), in minutes:
    // kDefaultNotebookLifetime unless set; a stored value out of 1..kMaxLifetimeMinutes is clamped.
    static constexpr int kDefaultNotebookLifetime = 60;
    int notebookLifetimeMinutes() const;
    void setNotebookLifetimeMinutes(int minutes);
    // Keep a notebook's sandbox alive while the notebook is in use (Lizard ▸ Preferences…): on by
    // default for local sandboxes (they cost nothing but this machine), off for cloud ones (they
    // are billed while they run, so keeping one alive is the user's choice).
    bool autoExtendLocal() const;
    bool autoExtendCloud() const;
    void setAutoExtend(bool local, bool cloud);
    // The Terminal tab's font (Font… there), as QFont::toString(); empty: the system's
    // fixed-width font.
    QString terminalFont() const;
    void setTerminalFont(const QString& font);
    // Lizard ▸ Preferences ▸ Appearance: "system" (the desktop's scheme, the default), "light" or
    // "dark" (ui::AppTheme::choiceName).
    QString colorScheme() const;
    void setColorScheme(const QString& scheme);
    void sync() { m_settings->sync(); }

private:
    std::unique_ptr<QSettings> m_settings;
};

} // namespace lizard::app
