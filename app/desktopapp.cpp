#include "app/desktopapp.h"

#include "app/connectioncontroller.h"
#include "app/desktopcolorscheme.h"
#include "app/firstpaint.h"
#include "app/keystore.h"
#include "app/localserverconnector.h"
#include "app/settingsstore.h"
#include "models/templatepools.h"
#include "ui/activity/activitycontroller.h"
#include "ui/connectionsdialog.h"
#include "ui/hostkeyquestion.h"
#include "ui/lifecycle/lifecyclecontroller.h"
#include "ui/mainwindow.h"
#include "ui/notebook/notebookcontroller.h"
#include "ui/notebook/sandboxswitcher.h"
#include "ui/preferencesdialog.h"
#include "ui/terminal/terminalarea.h"
#include "ui/theme/apptheme.h"

#include <QLabel>
#include <QStatusBar>
#include <QTimer>

namespace lizard::app {

DesktopApp::DesktopApp(std::unique_ptr<SettingsStore> settings, KeyStore* keys,
                       const QString& localDataDir, QObject* parent)
    : QObject(parent), m_settings(std::move(settings)), m_keys(keys),
      m_controller(new ConnectionController(keys, localDataDir, this)),
      m_window(std::make_unique<ui::MainWindow>())
{
    // Light or dark: the desktop's scheme, live, unless Preferences chose one.
    ui::AppTheme* theme = ui::AppTheme::instance();
    theme->setChoice(ui::AppTheme::choiceFromName(m_settings->colorScheme()));
    m_colorScheme = new DesktopColorScheme(QDBusConnection::sessionBus(), QString(), this);
    connect(m_colorScheme, &DesktopColorScheme::changed, theme, &ui::AppTheme::setSystemScheme);
    m_colorScheme->start();
    theme->setSystemScheme(m_colorScheme->scheme());
    connect(m_controller, &ConnectionController::connecting, this, [this](const QString& text) {
        m_window->clearBackend(text);
        m_window->statusBar()->showMessage(text);
    });
    connect(m_controller, &ConnectionController::connected, this,
            [this](client::LizardApi* api, const QString& label, const QStringList& notes,
                   const QString& keyFile) {
                m_window->setBackend(api, label, notes, keyFile);
                m_window->statusBar()->showMessage(QStringLiteral("Connected"), 5000);
            });
    connect(m_controller, &ConnectionController::failed, this, [this](const QString& message) {
        m_window->clearBackend(QStringLiteral("Not connected"));
        m_window->showProblem(
            message + QStringLiteral("\n(Lizard ▸ Connections… to choose another connection.)"));
    });
    // An SSH host: its unknown key asked about; its connection's drops and returns said where the
    // connection is shown.
    connect(m_controller, &ConnectionController::hostKeyQuestion, this,
            [this](const QString& host, const QStringList& fingerprints) {
                m_window->statusBar()->showMessage(
                    QStringLiteral("Waiting for your answer about the host key of %1").arg(host));
                ui::askToTrustHostKey(m_window.get(), host, fingerprints,
                                      [this](bool trust) { m_controller->answerHostKey(trust); });
            });
    // A label of its own in the status bar: the window's transient messages (a failed refresh
    // while the host is away) would cover a message.
    auto* tunnelState = new QLabel(m_window.get());
    tunnelState->setObjectName(QStringLiteral("sshTunnelState"));
    tunnelState->hide();
    m_window->statusBar()->addPermanentWidget(tunnelState);
    auto* hideTunnelState = new QTimer(this);
    hideTunnelState->setSingleShot(true);
    connect(hideTunnelState, &QTimer::timeout, tunnelState, &QLabel::hide);
    connect(m_controller, &ConnectionController::tunnelDropped, this,
            [tunnelState, hideTunnelState](const QString& message) {
                hideTunnelState->stop();
                tunnelState->setText(message);
                tunnelState->show();
            });
    connect(m_controller, &ConnectionController::tunnelRestored, this,
            [tunnelState, hideTunnelState](const QString& message) {
                tunnelState->setText(message);
                tunnelState->show();
                hideTunnelState->start(8000);
            });
    connect(m_controller, &ConnectionController::connecting, tunnelState, &QLabel::hide);
    connect(m_window.get(), &ui::MainWindow::connectionsRequested, this,
            &DesktopApp::editConnections);
    connect(m_window.get(), &ui::MainWindow::preferencesRequested, this,
            &DesktopApp::editPreferences);
    // Notebook: "Open notebook", the Notebook menu, restoring recovery copies.
    m_notebooks = new ui::notebook::NotebookController(m_window->workbench(),
                                                       notebook::RecoveryStore(), this);
    m_notebooks->setNewNotebookLifetime(m_settings->notebookLifetimeMinutes());
    // Activity: what happened in the selected sandbox, beside Console, Files and Ports.
    new ui::activity::ActivityController(m_window->workbench(), m_notebooks, this);
    // Lifecycle: the Lifecycle tab, the warning before a worked-on sandbox ends, Clean up….
    new ui::lifecycle::LifecycleController(m_window->workbench(), this);
    m_notebooks->sandboxSwitcher()->setAutoExtendPolicy(m_settings->autoExtendLocal(),
                                                        m_settings->autoExtendCloud());
    // Terminal: the font chosen last time.
    QFont terminalFont;
    const QString savedFont = m_settings->terminalFont();
    if (!savedFont.isEmpty() && terminalFont.fromString(savedFont))
        m_window->terminalArea()->setTerminalFont(terminalFont);
    connect(m_window->terminalArea(), &ui::TerminalArea::fontChosen, this,
            [this](const QFont& font) { m_settings->setTerminalFont(font.toString()); });
}

DesktopApp::~DesktopApp() = default;

void DesktopApp::start()
{
    // Help ▸ Check this computer asks the lizard-local the app would start.
    m_window->setHostCheckProgram(LocalServerConnector::findBinary());
    reportFirstPaint(m_window.get());
    m_window->show();
    m_controller->connectTo(m_settings->activeProfile());
}

void DesktopApp::editPreferences()
{
    auto* dialog = new ui::PreferencesDialog(m_settings->notebookLifetimeMinutes(), m_window.get());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setColorScheme(ui::AppTheme::choiceFromName(m_settings->colorScheme()));
    dialog->setAutoExtend(m_settings->autoExtendLocal(), m_settings->autoExtendCloud());
    // The pools are the server's setting: read when the dialog opens, set when it is accepted.
    auto* pools = new models::TemplatePools(m_window->api(), dialog);
    connect(pools, &models::TemplatePools::loaded, dialog, &ui::PreferencesDialog::setWarmPools);
    connect(pools, &models::TemplatePools::unavailable, dialog,
            &ui::PreferencesDialog::setWarmPoolsUnavailable);
    pools->load();
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        // Outlives the dialog (deleted on close) until the server answered.
        auto* apply = new models::TemplatePools(m_window->api(), this);
        connect(apply, &models::TemplatePools::applied, this, [this, apply](const QString& error) {
            if (!error.isEmpty())
                m_window->showProblem(error);
            apply->deleteLater();
        });
        apply->apply(dialog->changedWarmPools());
        m_settings->setNotebookLifetimeMinutes(dialog->notebookLifetimeMinutes());
        m_settings->setAutoExtend(dialog->autoExtendLocal(), dialog->autoExtendCloud());
        m_settings->setColorScheme(ui::AppTheme::choiceName(dialog->colorScheme()));
        m_settings->sync();
        ui::AppTheme::instance()->setChoice(dialog->colorScheme());
        m_notebooks->setNewNotebookLifetime(m_settings->notebookLifetimeMinutes());
        m_notebooks->sandboxSwitcher()->setAutoExtendPolicy(m_settings->autoExtendLocal(),
                                                            m_settings->autoExtendCloud());
    });
    dialog->open();
}

void DesktopApp::editConnections()
{
    ui::ConnectionsDialog dialog(m_settings->profiles(), m_settings->activeId(), m_keys->describe(),
                                 m_window.get());
    if (dialog.exec() != QDialog::Accepted)
        return;
    for (const QString& id : dialog.removedIds())
        m_keys->remove(id);
    const auto keys = dialog.newKeys();
    const QString activeId = dialog.activeId();
    m_settings->setProfiles(dialog.profiles());
    m_settings->setActiveId(activeId);
    m_settings->sync();
    auto remaining = std::make_shared<int>(int(keys.size()));
    const auto connectActive = [this] { m_controller->connectTo(m_settings->activeProfile()); };
    if (keys.isEmpty()) {
        connectActive();
        return;
    }
    for (auto it = keys.cbegin(); it != keys.cend(); ++it) {
        m_keys->store(it.key(), it.value(),
                      [this, remaining, connectActive](KeyStore::Backend, const QString& error) {
                          if (!error.isEmpty())
                              m_window->showProblem(QStringLiteral("Saving the API key failed: ") +
                                                    error);
                          else
                              m_window->showInfo(m_keys->describe());
                          if (--*remaining == 0)
                              connectActive();
                      });
    }
}

} // namespace lizard::app
