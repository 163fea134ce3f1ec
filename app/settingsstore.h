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
    SettingsStore();                                   // the app's QSettings
    explicit SettingsStore(const QString& iniPath);    // a given file (tests)

    QList<models::ConnectionProfile> profiles() const; // Local first
    void setProfiles(const QList<models::ConnectionProfile>& profiles);
    QString activeId() const;                          // "local" unless set
    void setActiveId(const QString& id);
    models::ConnectionProfile activeProfile() const;
    void sync() { m_settings->sync(); }

private:
    std::unique_ptr<QSettings> m_settings;
};

} // namespace lizard::app
