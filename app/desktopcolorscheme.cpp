#include "app/desktopcolorscheme.h"

#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QDBusVariant>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

namespace lizard::app {

namespace {

const QString kPortalService = QStringLiteral("org.freedesktop.portal.Desktop");
const QString kPortalPath = QStringLiteral("/org/freedesktop/portal/desktop");
const QString kSettings = QStringLiteral("org.freedesktop.portal.Settings");
const QString kAppearance = QStringLiteral("org.freedesktop.appearance");
const QString kColorScheme = QStringLiteral("color-scheme");
constexpr int kPortalTimeoutMs = 2000;

using Scheme = DesktopColorScheme::Scheme;

bool namesDark(const QString& name)
{
    return name.contains(QLatin1String("dark"), Qt::CaseInsensitive);
}

// GTK_THEME=Adwaita:dark, or a theme whose name says dark (Adwaita-dark, Arc-Dark).
Scheme fromGtkTheme(const QString& theme)
{
    if (theme.isEmpty())
        return Scheme::Unknown;
    return namesDark(theme) ? Scheme::Dark : Scheme::Light;
}

// One key of an INI-like file (kdeglobals, GTK's settings.ini) as it is written: QSettings would
// read [General] as its root group and a comma list as a list.
QString iniValue(const QString& path, const QString& section, const QString& key)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return {};
    QString current;
    while (!file.atEnd()) {
        const QString line = QString::fromUtf8(file.readLine()).trimmed();
        if (line.startsWith(QLatin1Char('[')) && line.endsWith(QLatin1Char(']'))) {
            current = line.mid(1, line.size() - 2);
            continue;
        }
        const qsizetype eq = line.indexOf(QLatin1Char('='));
        if (current == section && eq > 0 && line.left(eq).trimmed() == key)
            return line.mid(eq + 1).trimmed();
    }
    return {};
}

// KDE: the window colour of [Colors:Window], else [General] ColorScheme=BreezeDark.
Scheme fromKdeGlobals(const QString& path)
{
    if (!QFileInfo::exists(path))
        return Scheme::Unknown;
    const QStringList rgb =
        iniValue(path, QStringLiteral("Colors:Window"), QStringLiteral("BackgroundNormal"))
            .split(QLatin1Char(','));
    if (rgb.size() >= 3) {
        const int r = rgb[0].trimmed().toInt(), g = rgb[1].trimmed().toInt(),
                  b = rgb[2].trimmed().toInt();
        // Rec. 601 luma of the window colour.
        return (299 * r + 587 * g + 114 * b) / 1000 < 128 ? Scheme::Dark : Scheme::Light;
    }
    const QString scheme = iniValue(path, QStringLiteral("General"), QStringLiteral("ColorScheme"));
    if (scheme.isEmpty())
        return Scheme::Unknown;
    return namesDark(scheme) ? Scheme::Dark : Scheme::Light;
}

// GTK 3 and 4: gtk-application-prefer-dark-theme, else the theme's name.
Scheme fromGtkSettings(const QString& path)
{
    if (!QFileInfo::exists(path))
        return Scheme::Unknown;
    const QString settings = QStringLiteral("Settings");
    const QString prefer =
        iniValue(path, settings, QStringLiteral("gtk-application-prefer-dark-theme")).toLower();
    if (prefer == QLatin1String("1") || prefer == QLatin1String("true"))
        return Scheme::Dark;
    const QString theme = iniValue(path, settings, QStringLiteral("gtk-theme-name"));
    if (!theme.isEmpty())
        return namesDark(theme) ? Scheme::Dark : Scheme::Light;
    return prefer.isEmpty() ? Scheme::Unknown : Scheme::Light;
}

QStringList watchedFiles(const QString& configHome)
{
    return {configHome + QStringLiteral("/kdeglobals"),
            configHome + QStringLiteral("/gtk-4.0/settings.ini"),
            configHome + QStringLiteral("/gtk-3.0/settings.ini")};
}

// The Settings.Read answer wraps the value in one variant more than ReadOne's.
QVariant unwrap(QVariant value)
{
    while (value.userType() == qMetaTypeId<QDBusVariant>())
        value = qvariant_cast<QDBusVariant>(value).variant();
    return value;
}

} // namespace

DesktopColorScheme::DesktopColorScheme(const QDBusConnection& bus, const QString& configHome,
                                       QObject* parent)
    : QObject(parent), m_bus(bus), m_configHome(configHome)
{
    if (m_configHome.isEmpty())
        m_configHome = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation);
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, [this] {
        readFiles();
        watchFiles(); // an editor that replaces the file drops it from the watch
        update();
    });
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, [this] {
        readFiles();
        watchFiles();
        update();
    });
}

void DesktopColorScheme::start()
{
    if (m_started)
        return;
    m_started = true;
    readFiles();
    watchFiles();
    m_last = scheme();
    if (m_bus.isConnected()) {
        m_bus.connect(kPortalService, kPortalPath, kSettings, QStringLiteral("SettingChanged"),
                      this, SLOT(onPortalSettingChanged(QString, QString, QDBusVariant)));
        askPortal();
    }
}

DesktopColorScheme::Scheme DesktopColorScheme::scheme() const
{
    return m_portal != Scheme::Unknown ? m_portal : m_files;
}

QString DesktopColorScheme::source() const
{
    if (m_portal != Scheme::Unknown)
        return QStringLiteral("portal");
    return m_files != Scheme::Unknown ? m_filesSource : QStringLiteral("none");
}

DesktopColorScheme::Scheme DesktopColorScheme::fromPortalValue(uint value)
{
    return value == 1 ? Scheme::Dark : value == 2 ? Scheme::Light : Scheme::Unknown;
}

DesktopColorScheme::Scheme DesktopColorScheme::fromFiles(const QString& configHome,
                                                         const QString& gtkTheme,
                                                         const QString& currentDesktop,
                                                         QString* source)
{
    const auto answer = [source](Scheme scheme, const char* from) {
        if (source)
            *source = QString::fromLatin1(from);
        return scheme;
    };
    if (const Scheme s = fromGtkTheme(gtkTheme); s != Scheme::Unknown)
        return answer(s, "GTK_THEME");
    // The desktop's own file first: a KDE session may have a GTK settings.ini that KDE writes
    // for GTK programs, and a GNOME one an old kdeglobals.
    const bool kde = currentDesktop.contains(QLatin1String("KDE"), Qt::CaseInsensitive);
    const Scheme kdeScheme = fromKdeGlobals(configHome + QStringLiteral("/kdeglobals"));
    if (kde && kdeScheme != Scheme::Unknown)
        return answer(kdeScheme, "kdeglobals");
    for (const char* dir : {"/gtk-4.0", "/gtk-3.0"}) {
        const Scheme s =
            fromGtkSettings(configHome + QLatin1String(dir) + QStringLiteral("/settings.ini"));
        if (s != Scheme::Unknown)
            return answer(s, "gtk settings.ini");
    }
    if (kdeScheme != Scheme::Unknown)
        return answer(kdeScheme, "kdeglobals");
    return answer(Scheme::Unknown, "none");
}

void DesktopColorScheme::askPortal()
{
    // Read, not ReadOne: every version of the portal has it (ReadOne came with version 2).
    QDBusMessage call = QDBusMessage::createMethodCall(kPortalService, kPortalPath, kSettings,
                                                       QStringLiteral("Read"));
    call << kAppearance << kColorScheme;
    auto* watcher = new QDBusPendingCallWatcher(m_bus.asyncCall(call, kPortalTimeoutMs), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this, [this](QDBusPendingCallWatcher* w) {
        w->deleteLater();
        const QDBusPendingReply<QVariant> reply = *w;
        // No portal, or one without the setting: the files answer.
        if (!reply.isError())
            setPortalValue(reply.value());
    });
}

void DesktopColorScheme::onPortalSettingChanged(const QString& group, const QString& key,
                                                const QDBusVariant& value)
{
    if (group == kAppearance && key == kColorScheme)
        setPortalValue(value.variant());
}

void DesktopColorScheme::setPortalValue(const QVariant& value)
{
    const QVariant v = unwrap(value);
    bool ok = false;
    const uint number = v.toUInt(&ok);
    m_portal = ok ? fromPortalValue(number) : Scheme::Unknown;
    update();
}

void DesktopColorScheme::readFiles()
{
    m_files = fromFiles(m_configHome, qEnvironmentVariable("GTK_THEME"),
                        qEnvironmentVariable("XDG_CURRENT_DESKTOP"), &m_filesSource);
}

void DesktopColorScheme::watchFiles()
{
    // The files where they exist, else their folders (so that one being created is seen).
    QStringList paths;
    for (const QString& file : watchedFiles(m_configHome)) {
        if (QFileInfo::exists(file))
            paths << file;
        else if (const QString dir = QFileInfo(file).path(); QFileInfo::exists(dir))
            paths << dir;
    }
    paths.removeDuplicates();
    const QStringList watched = m_watcher.files() + m_watcher.directories();
    for (const QString& path : paths)
        if (!watched.contains(path))
            m_watcher.addPath(path);
}

void DesktopColorScheme::update()
{
    const Scheme now = scheme();
    if (now == m_last)
        return;
    m_last = now;
    emit changed(now);
}

} // namespace lizard::app
