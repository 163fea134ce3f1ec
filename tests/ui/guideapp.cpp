#include "guideapp.h"

#include "app/desktopapp.h"
#include "app/keystore.h"
#include "app/settingsstore.h"
#include "models/sandboxrow.h"
#include "models/sandboxtablemodel.h"
#include "notebook/notebookdocument.h"
#include "support/wait.h"
#include "ui/bannerwidget.h"
#include "ui/consolearea.h"
#include "ui/consoleview.h"
#include "ui/consolewidget.h"
#include "ui/documenttabs.h"
#include "ui/files/fileeditorpage.h"
#include "ui/mainwindow.h"
#include "ui/notebook/notebookpage.h"
#include "ui/projecttabs.h"
#include "ui/sandboxpanel.h"

#include <QApplication>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>

namespace lizard::test {

GuideApp::GuideApp() = default;

GuideApp::~GuideApp()
{
    stop();
}

ui::MainWindow* GuideApp::window() const
{
    return m_app ? m_app->window() : nullptr;
}

QString GuideApp::start()
{
    if (!m_server.start())
        return m_server.errorString();
    // The app finds the running server through server.json in its data directory, as it finds
    // the user's. Settings go to this suite's own file; cloud keys to where the app keeps them
    // without a keychain (under the temporary XDG_CONFIG_HOME of exec()).
    const QString keyFile = QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) +
                            QStringLiteral("/api-keys.json");
    auto* keys = new app::KeyStore(keyFile, false);
    m_app = std::make_unique<app::DesktopApp>(std::make_unique<app::SettingsStore>(settingsFile()),
                                              keys, m_server.dataDir());
    keys->setParent(m_app.get());
    window()->resize(1200, 760);
    m_app->start();
    if (!QTest::qWaitForWindowExposed(window()) || !activate())
        return QStringLiteral("the window did not show");
    return {};
}

void GuideApp::stop()
{
    if (m_app == nullptr)
        return;
    for (ui::DocumentPage* page : window()->documentTabs()->documents()) {
        if (auto* nb = qobject_cast<ui::notebook::NotebookPage*>(page))
            nb->document()->setClean();
        if (auto* editor = qobject_cast<ui::files::FileEditorPage*>(page))
            editor->editor()->document()->setModified(false);
    }
    m_app.reset(); // LocalServer ends every sandbox it still lists when it goes
}

bool GuideApp::activate()
{
    QApplication::setActiveWindow(window());
    return QTest::qWaitForWindowActive(window());
}

void GuideApp::showHome(const QString& sandboxId, QWidget* tool)
{
    activate();
    window()->documentTabs()->setCurrentIndex(0);
    window()->projectTabs()->setCurrentIndex(ui::ProjectTabs::SandboxesTab);
    window()->sandboxPanel()->selectSandbox(sandboxId);
    if (tool != nullptr)
        window()->toolTabs()->setCurrentWidget(tool);
}

QString GuideApp::runInConsole(const QString& command, bool waitForExit)
{
    ui::ConsoleWidget* console = window()->consoleArea()->currentConsole();
    if (console == nullptr)
        return QStringLiteral("<no console>");
    const qsizetype before = console->view()->toPlainText().size();
    console->commandLine()->setFocus();
    QTest::keyClicks(console->commandLine(), command);
    QTest::keyClick(console->commandLine(), Qt::Key_Return);
    const auto output = [console, before] { return console->view()->toPlainText().mid(before); };
    if (waitForExit)
        (void)lizard::test::waitUntil([&output] { return output().contains("\n[exit "); }, 60000);
    return output();
}

QString GuideApp::statusShown(const QString& sandboxId) const
{
    const models::SandboxTableModel* model = window()->sandboxModel();
    const int row = model->rowOf(sandboxId);
    return row < 0 ? QString() : model->index(row, models::SandboxColumn::Status).data().toString();
}

bool GuideApp::noErrorShown() const
{
    const ui::BannerWidget* banner = window()->banner();
    if (banner->isVisible() && banner->kind() == ui::BannerWidget::Kind::Error) {
        qWarning().noquote() << "error banner:" << banner->text();
        return false;
    }
    return true;
}

void GuideApp::prepare(const QString& home)
{
    // No GL share context asked for here: as in lizard-desktop, the preview plugin's loader
    // makes it on the first preview.
    qputenv("QTWEBENGINE_DISABLE_SANDBOX", "1"); // tests may run as root
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(home + "/.config"));
    qputenv("XDG_DATA_HOME", QFile::encodeName(home + "/.local/share"));
    qputenv("XDG_CACHE_HOME", QFile::encodeName(home + "/.cache"));
}

void GuideApp::nameApplication()
{
    QApplication::setOrganizationName(QStringLiteral("lizard"));
    QApplication::setApplicationName(QStringLiteral("lizard-desktop"));
}

} // namespace lizard::test
