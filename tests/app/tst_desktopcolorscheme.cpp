// The desktop's light or dark scheme, as the app follows it: a private D-Bus daemon with a portal
// of the test's own (org.freedesktop.portal.Settings: Read and SettingChanged, as
// xdg-desktop-portal serves them), then the fallbacks without a portal (GTK_THEME, kdeglobals,
// GTK's settings.ini, watched), and the app's palette following a change of the portal's setting
// through DesktopApp's wiring, unless Preferences chose a scheme.
#include "app/desktopapp.h"
#include "app/desktopcolorscheme.h"
#include "app/keystore.h"
#include "app/settingsstore.h"
#include "ui/mainwindow.h"
#include "ui/theme/apptheme.h"
#include "ui/theme/themepalette.h"

#include <QApplication>
#include <QDBusAbstractAdaptor>
#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDBusVariant>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace lizard;
using Scheme = ui::AppTheme::Scheme;

namespace {

const QString kService = QStringLiteral("org.freedesktop.portal.Desktop");
const QString kPath = QStringLiteral("/org/freedesktop/portal/desktop");

} // namespace

// The Settings interface of a desktop portal, with one setting the test changes.
class FakePortalSettings : public QDBusAbstractAdaptor
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.portal.Settings")
public:
    explicit FakePortalSettings(QObject* object) : QDBusAbstractAdaptor(object) {}
    uint colorScheme = 0;
    int reads = 0;

    void change(uint value)
    {
        colorScheme = value;
        emit SettingChanged(QStringLiteral("org.freedesktop.appearance"),
                            QStringLiteral("color-scheme"), QDBusVariant(QVariant(value)));
    }

public slots:
    // As xdg-desktop-portal answers Read: the value in a variant inside the reply's variant.
    QDBusVariant Read(const QString& group, const QString& key)
    {
        ++reads;
        if (group != QLatin1String("org.freedesktop.appearance") ||
            key != QLatin1String("color-scheme"))
            return QDBusVariant(QVariant::fromValue(QDBusVariant(QVariant(QString()))));
        return QDBusVariant(QVariant::fromValue(QDBusVariant(QVariant(colorScheme))));
    }

signals:
    void SettingChanged(const QString& group, const QString& key, const QDBusVariant& value);
};

class TestDesktopColorScheme : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void portalValues_data();
    void portalValues();
    void portalChangeIsFollowed();
    void filesWithoutPortal_data();
    void filesWithoutPortal();
    void fileChangeIsFollowed();
    void appPaletteFollowsThePortal();

private:
    QDBusConnection bus(const QString& name) const
    {
        return QDBusConnection::connectToBus(m_address, name);
    }
    void writeFile(const QString& rel, const QByteArray& text);

    QProcess m_daemon;
    QString m_address;
    QTemporaryDir m_tmp;
    QObject* m_portalObject = nullptr;
    FakePortalSettings* m_portal = nullptr;
};

void TestDesktopColorScheme::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    // A bus of the test's own: no service on it can be started by name (no service folders).
    const QString config = m_tmp.filePath("bus.conf");
    QFile file(config);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\""
               " \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
               "<busconfig><type>session</type><listen>unix:tmpdir=/tmp</listen>"
               "<auth>EXTERNAL</auth><policy context=\"default\"><allow send_destination=\"*\"/>"
               "<allow eavesdrop=\"true\"/><allow own=\"*\"/></policy></busconfig>\n");
    file.close();
    m_daemon.start(QStringLiteral("dbus-daemon"),
                   {QStringLiteral("--config-file=") + config, QStringLiteral("--nofork"),
                    QStringLiteral("--print-address=1")});
    QVERIFY2(m_daemon.waitForStarted(5000), "dbus-daemon (package dbus-daemon) did not start");
    QTRY_VERIFY_WITH_TIMEOUT(m_daemon.canReadLine(), 10000);
    m_address = QString::fromUtf8(m_daemon.readLine()).trimmed();
    QVERIFY(!m_address.isEmpty());

    QDBusConnection portalBus = bus(QStringLiteral("portal"));
    QVERIFY2(portalBus.isConnected(), qPrintable(portalBus.lastError().message()));
    m_portalObject = new QObject(this);
    m_portal = new FakePortalSettings(m_portalObject);
    QVERIFY(portalBus.registerObject(kPath, m_portalObject, QDBusConnection::ExportAdaptors));
    QVERIFY(portalBus.registerService(kService));
}

void TestDesktopColorScheme::cleanupTestCase()
{
    QDBusConnection::disconnectFromBus(QStringLiteral("portal"));
    m_daemon.terminate();
    m_daemon.waitForFinished(5000);
}

void TestDesktopColorScheme::writeFile(const QString& rel, const QByteArray& text)
{
    const QString path = m_tmp.filePath(rel);
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(text);
}

void TestDesktopColorScheme::portalValues_data()
{
    QTest::addColumn<uint>("value");
    QTest::addColumn<Scheme>("expected");
    QTest::newRow("prefer dark") << 1u << Scheme::Dark;
    QTest::newRow("prefer light") << 2u << Scheme::Light;
    // No preference: the files say (none here, so nothing is known).
    QTest::newRow("no preference") << 0u << Scheme::Unknown;
}

void TestDesktopColorScheme::portalValues()
{
    QFETCH(uint, value);
    QFETCH(Scheme, expected);
    m_portal->colorScheme = value;
    const int reads = m_portal->reads;
    app::DesktopColorScheme scheme(bus(QStringLiteral("app")), m_tmp.filePath("empty-config"));
    scheme.start();
    QTRY_VERIFY(m_portal->reads > reads);
    QTRY_COMPARE(scheme.scheme(), expected);
    QCOMPARE(scheme.source(),
             expected == Scheme::Unknown ? QStringLiteral("none") : QStringLiteral("portal"));
}

void TestDesktopColorScheme::portalChangeIsFollowed()
{
    m_portal->colorScheme = 2;
    app::DesktopColorScheme scheme(bus(QStringLiteral("app")), m_tmp.filePath("empty-config"));
    QSignalSpy changed(&scheme, &app::DesktopColorScheme::changed);
    scheme.start();
    QTRY_COMPARE(scheme.scheme(), Scheme::Light);
    m_portal->change(1); // the user switched the desktop to dark
    QTRY_COMPARE(scheme.scheme(), Scheme::Dark);
    QCOMPARE(changed.last().at(0).value<Scheme>(), Scheme::Dark);
    m_portal->change(2);
    QTRY_COMPARE(scheme.scheme(), Scheme::Light);
    // Another setting of the portal changes nothing.
    emit m_portal->SettingChanged(QStringLiteral("org.gnome.desktop.interface"),
                                  QStringLiteral("color-scheme"), QDBusVariant(QVariant(1u)));
    QTest::qWait(50); // nothing to wait for: a change would have come with the last one
    QCOMPARE(scheme.scheme(), Scheme::Light);
}

void TestDesktopColorScheme::filesWithoutPortal_data()
{
    QTest::addColumn<QString>("gtkTheme");
    QTest::addColumn<QString>("desktop");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<Scheme>("expected");
    QTest::addColumn<QString>("source");
    QTest::newRow("GTK_THEME dark") << "Adwaita:dark"
                                    << "GNOME"
                                    << "" << QByteArray() << Scheme::Dark << "GTK_THEME";
    QTest::newRow("GTK_THEME light") << "Adwaita"
                                     << "GNOME"
                                     << "" << QByteArray() << Scheme::Light << "GTK_THEME";
    QTest::newRow("kdeglobals scheme")
        << ""
        << "KDE"
        << "kdeglobals" << QByteArray("[General]\nColorScheme=BreezeDark\n") << Scheme::Dark
        << "kdeglobals";
    QTest::newRow("kdeglobals window colour")
        << ""
        << "KDE"
        << "kdeglobals" << QByteArray("[Colors:Window]\nBackgroundNormal=32,35,38\n")
        << Scheme::Dark << "kdeglobals";
    QTest::newRow("kdeglobals light")
        << ""
        << "KDE"
        << "kdeglobals" << QByteArray("[General]\nColorScheme=BreezeLight\n") << Scheme::Light
        << "kdeglobals";
    QTest::newRow("gtk3 prefer dark")
        << ""
        << "XFCE"
        << "gtk-3.0/settings.ini" << QByteArray("[Settings]\ngtk-application-prefer-dark-theme=1\n")
        << Scheme::Dark << "gtk settings.ini";
    QTest::newRow("gtk4 dark theme")
        << ""
        << "GNOME"
        << "gtk-4.0/settings.ini" << QByteArray("[Settings]\ngtk-theme-name=Arc-Dark\n")
        << Scheme::Dark << "gtk settings.ini";
    QTest::newRow("nothing") << ""
                             << ""
                             << "" << QByteArray() << Scheme::Unknown << "none";
}

void TestDesktopColorScheme::filesWithoutPortal()
{
    QFETCH(QString, gtkTheme);
    QFETCH(QString, desktop);
    QFETCH(QString, file);
    QFETCH(QByteArray, text);
    QFETCH(Scheme, expected);
    QFETCH(QString, source);
    QTemporaryDir config;
    if (!file.isEmpty()) {
        const QString path = config.filePath(file);
        QDir().mkpath(QFileInfo(path).path());
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
    }
    QString from;
    QCOMPARE(app::DesktopColorScheme::fromFiles(config.path(), gtkTheme, desktop, &from), expected);
    QCOMPARE(from, source);
}

void TestDesktopColorScheme::fileChangeIsFollowed()
{
    // No portal on this bus: KDE's file answers, and its change is seen.
    QDBusConnection portalBus = bus(QStringLiteral("portal"));
    QVERIFY(portalBus.unregisterService(kService));
    const auto restore = qScopeGuard([portalBus]() mutable {
        qunsetenv("XDG_CURRENT_DESKTOP");
        portalBus.registerService(kService);
    });
    qputenv("XDG_CURRENT_DESKTOP", "KDE");
    qunsetenv("GTK_THEME");
    writeFile("kde/kdeglobals", "[General]\nColorScheme=BreezeLight\n");
    app::DesktopColorScheme scheme(bus(QStringLiteral("app")), m_tmp.filePath("kde"));
    scheme.start();
    QCOMPARE(scheme.scheme(), Scheme::Light);
    QCOMPARE(scheme.source(), QStringLiteral("kdeglobals"));
    writeFile("kde/kdeglobals", "[General]\nColorScheme=BreezeDark\n");
    QTRY_COMPARE_WITH_TIMEOUT(scheme.scheme(), Scheme::Dark, 10000);
    // Written as editors do (a new file renamed over the old one): still followed.
    writeFile("kde/kdeglobals.new", "[General]\nColorScheme=BreezeLight\n");
    QFile::remove(m_tmp.filePath("kde/kdeglobals"));
    QVERIFY(QFile::rename(m_tmp.filePath("kde/kdeglobals.new"), m_tmp.filePath("kde/kdeglobals")));
    QTRY_COMPARE_WITH_TIMEOUT(scheme.scheme(), Scheme::Light, 10000);
}

void TestDesktopColorScheme::appPaletteFollowsThePortal()
{
    // DesktopApp asks the session bus: this one.
    qputenv("DBUS_SESSION_BUS_ADDRESS", m_address.toUtf8());
    m_portal->colorScheme = 2;
    auto* keys = new app::KeyStore(m_tmp.filePath("keys.json"), false, this);
    const QString ini = m_tmp.filePath("settings.ini");
    app::DesktopApp desktop(std::make_unique<app::SettingsStore>(ini), keys,
                            m_tmp.filePath("data"));
    ui::MainWindow* window = desktop.window();
    window->show();
    QTRY_COMPARE(ui::AppTheme::instance()->systemScheme(), Scheme::Light);
    QVERIFY(!ui::isDarkPalette(QApplication::palette()));
    m_portal->change(1);
    QTRY_VERIFY(ui::AppTheme::instance()->isDark());
    QVERIFY(ui::isDarkPalette(QApplication::palette()));
    QTRY_VERIFY(ui::isDarkPalette(window->palette()));
    // Preferences ▸ Appearance ▸ Light wins over the desktop, and is kept.
    ui::AppTheme::instance()->setChoice(ui::AppTheme::Choice::Light);
    QVERIFY(!ui::isDarkPalette(QApplication::palette()));
    m_portal->change(2);
    m_portal->change(1);
    QTRY_COMPARE(ui::AppTheme::instance()->systemScheme(), Scheme::Dark);
    QVERIFY(!ui::isDarkPalette(QApplication::palette()));
    ui::AppTheme::instance()->setChoice(ui::AppTheme::Choice::System);
    QVERIFY(ui::isDarkPalette(QApplication::palette()));
    m_portal->change(2);
    QTRY_VERIFY(!ui::AppTheme::instance()->isDark());
}

QTEST_MAIN(TestDesktopColorScheme)
#include "tst_desktopcolorscheme.moc"
