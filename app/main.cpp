// lizard-desktop: manage Lizard sandboxes on this computer (lizard-local) or in the cloud.

#include "app/desktopapp.h"
#include "app/keystore.h"
#include "app/localserverconnector.h"
#include "app/settingsstore.h"
#include "notebook/spillfile.h"

#include <QApplication>
#include <QDir>
#include <QIcon>
#include <QStandardPaths>
#include <cstdio>
#include <cstring>

namespace {

// --version and --help are answered before QApplication exists: they must work without a
// display (packaging checks, a terminal over ssh). Qt's own options (-platform, …) pass on.
int answerInfoOptions(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--version") == 0 || std::strcmp(argv[i], "-v") == 0) {
            std::printf("lizard-desktop %s\n", LIZARD_DESKTOP_VERSION);
            return 0;
        }
        if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
            std::printf("usage: lizard-desktop [Qt options]\n"
                        "Manage Lizard sandboxes on this computer (lizard-local) or in the cloud.\n"
                        "It connects to the lizard-local that runs for this user (found through\n"
                        "$XDG_DATA_HOME/lizard-local/server.json) or starts one.\n"
                        "  -h, --help     print this help\n"
                        "  -v, --version  print the version\n"
                        "Qt options such as -platform offscreen are passed to Qt; see "
                        "lizard-desktop(1).\n");
            return 0;
        }
    }
    return -1;
}

} // namespace

int main(int argc, char** argv)
{
    if (const int rc = answerInfoOptions(argc, argv); rc >= 0)
        return rc;
    // Ports: QtWebEngine (the preview plugin, loaded on the first preview) needs a shared GL
    // context; the plugin's loader makes it then (ui/ports/previewengine.cpp), not here: asked for
    // before the application exists it would load the GL driver at every start.
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("lizard"));
    QApplication::setApplicationName(QStringLiteral("lizard-desktop"));
    QApplication::setApplicationVersion(QStringLiteral(LIZARD_DESKTOP_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("build.lizard.LizardDesktop"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/lizard.svg")));

    // Big outputs of a crashed earlier run stay in the temp folder; nothing else removes them.
    lizard::notebook::SpillFile::removeLeftovers(QDir::tempPath());

    const QString keyFile = QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) +
                            QStringLiteral("/api-keys.json");
    auto* keys = new lizard::app::KeyStore(keyFile, true, &app);
    lizard::app::DesktopApp desktop(std::make_unique<lizard::app::SettingsStore>(), keys,
                                    lizard::app::LocalServerConnector::defaultDataDir());
    desktop.start();
    return QApplication::exec();
}
