#include "app/settingsstore.h"

#include "client/types.h"

#include <algorithm>

namespace lizard::app {

using models::ConnectionProfile;

SettingsStore::SettingsStore() : m_settings(std::make_unique<QSettings>()) {}

SettingsStore::SettingsStore(const QString& iniPath)
    : m_settings(std::make_unique<QSettings>(iniPath, QSettings::IniFormat))
{
}

QList<ConnectionProfile> SettingsStore::profiles() const
{
    QList<ConnectionProfile> result{ConnectionProfile::local()};
    const int n = m_settings->beginReadArray(QStringLiteral("connections"));
    for (int i = 0; i < n; ++i) {
        m_settings->setArrayIndex(i);
        ConnectionProfile p;
        p.id = m_settings->value(QStringLiteral("id")).toString();
        p.name = m_settings->value(QStringLiteral("name")).toString();
        p.url = m_settings->value(QStringLiteral("url")).toString();
        const bool ssh =
            m_settings->value(QStringLiteral("kind")).toString() == QLatin1String("ssh");
        p.kind = ssh ? ConnectionProfile::Kind::Ssh : ConnectionProfile::Kind::Cloud;
        p.keyInClearConfirmed =
            m_settings->value(QStringLiteral("keyInClearConfirmed"), false).toBool();
        p.caFile = m_settings->value(QStringLiteral("caFile")).toString();
        p.sshDestination = m_settings->value(QStringLiteral("sshDestination")).toString();
        p.sshPort = m_settings->value(QStringLiteral("sshPort"), 0).toInt();
        p.sshIdentity = m_settings->value(QStringLiteral("sshIdentity")).toString();
        if (p.id.isEmpty() || p.id == QLatin1String("local") ||
            (ssh ? p.sshDestination.isEmpty() : p.url.isEmpty()))
            continue; // damaged entry: skip it rather than fail the whole list
        result.append(p);
    }
    m_settings->endArray();
    return result;
}

void SettingsStore::setProfiles(const QList<ConnectionProfile>& profiles)
{
    m_settings->remove(QStringLiteral("connections"));
    m_settings->beginWriteArray(QStringLiteral("connections"));
    int i = 0;
    for (const ConnectionProfile& p : profiles) {
        if (p.kind == ConnectionProfile::Kind::Local)
            continue;
        m_settings->setArrayIndex(i++);
        m_settings->setValue(QStringLiteral("id"), p.id);
        m_settings->setValue(QStringLiteral("name"), p.name);
        if (p.kind == ConnectionProfile::Kind::Ssh) {
            m_settings->setValue(QStringLiteral("kind"), QStringLiteral("ssh"));
            m_settings->setValue(QStringLiteral("sshDestination"), p.sshDestination);
            if (p.sshPort > 0)
                m_settings->setValue(QStringLiteral("sshPort"), p.sshPort);
            if (!p.sshIdentity.isEmpty())
                m_settings->setValue(QStringLiteral("sshIdentity"), p.sshIdentity);
            continue;
        }
        m_settings->setValue(QStringLiteral("url"), p.url);
        if (p.keyInClearConfirmed)
            m_settings->setValue(QStringLiteral("keyInClearConfirmed"), true);
        if (!p.caFile.isEmpty())
            m_settings->setValue(QStringLiteral("caFile"), p.caFile);
    }
    m_settings->endArray();
}

QString SettingsStore::activeId() const
{
    return m_settings->value(QStringLiteral("activeConnection"), QStringLiteral("local"))
        .toString();
}

void SettingsStore::setActiveId(const QString& id)
{
    m_settings->setValue(QStringLiteral("activeConnection"), id);
}

ConnectionProfile SettingsStore::activeProfile() const
{
    const QString id = activeId();
    for (const ConnectionProfile& p : profiles())
        if (p.id == id)
            return p;
    return ConnectionProfile::local();
}

int SettingsStore::notebookLifetimeMinutes() const
{
    bool ok = false;
    const int minutes =
        m_settings->value(QStringLiteral("notebook/lifetimeMinutes"), kDefaultNotebookLifetime)
            .toInt(&ok);
    return ok ? std::clamp(minutes, 1, client::kMaxLifetimeMinutes) : kDefaultNotebookLifetime;
}

void SettingsStore::setNotebookLifetimeMinutes(int minutes)
{
    m_settings->setValue(QStringLiteral("notebook/lifetimeMinutes"),
                         std::clamp(minutes, 1, client::kMaxLifetimeMinutes));
}

QString SettingsStore::terminalFont() const
{
    return m_settings->value(QStringLiteral("terminal/font")).toString();
}

void SettingsStore::setTerminalFont(const QString& font)
{
    m_settings->setValue(QStringLiteral("terminal/font"), font);
}

QString SettingsStore::colorScheme() const
{
    return m_settings->value(QStringLiteral("appearance/colorScheme"), QStringLiteral("system"))
        .toString();
}

void SettingsStore::setColorScheme(const QString& scheme)
{
    m_settings->setValue(QStringLiteral("appearance/colorScheme"), scheme);
}

bool SettingsStore::autoExtendLocal() const
{
    return m_settings->value(QStringLiteral("notebook/autoExtendLocal"), true).toBool();
}

bool SettingsStore::autoExtendCloud() const
{
    return m_settings->value(QStringLiteral("notebook/autoExtendCloud"), false).toBool();
}

void SettingsStore::setAutoExtend(bool local, bool cloud)
{
    m_settings->setValue(QStringLiteral("notebook/autoExtendLocal"), local);
    m_settings->setValue(QStringLiteral("notebook/autoExtendCloud"), cloud);
}

} // namespace lizard::app
