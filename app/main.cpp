// lizard-desktop: manage Lizard sandboxes on this computer (lizard-local) or in the cloud.

#include "app/desktopapp.h"
#include "app/keystore.h"
#include "app/localserverconnector.h"
#include "app/settingsstore.h"

#include <QApplication>
#include <QIcon>
#include <QStandardPaths>

int main(int argc, char** argv)
{
    // Ports (issue 5): QtWebEngine (the preview plugin, loaded on the first preview) needs
    // shared GL contexts, which can only be asked for before the application object exists.
    QCoreApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("lizard"));
    QApplication::setApplicationName(QStringLiteral("lizard-desktop"));
    QApplication::setApplicationVersion(QStringLiteral(LIZARD_DESKTOP_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("lizard-desktop"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/lizard.svg")));

    const QString keyFile = QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) +
                            QStringLiteral("/api-keys.json");
    auto* keys = new lizard::app::KeyStore(keyFile, true, &app);
    lizard::app::DesktopApp desktop(std::make_unique<lizard::app::SettingsStore>(), keys,
                                    lizard::app::LocalServerConnector::defaultDataDir());
    desktop.start();
    return QApplication::exec();
}
