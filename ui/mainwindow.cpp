#include "ui/mainwindow.h"

#include "models/connectionwatch.h"
#include "models/projectlistmodel.h"
#include "models/sandboxactions.h"
#include "models/sandboxtablemodel.h"
#include "models/serveraccount.h"
#include "ui/aboutdialog.h"
#include "ui/apikeysdialog.h"
#include "ui/bannerwidget.h"
#include "ui/changes/changespanel.h"
#include "ui/consolearea.h"
#include "ui/desktop/screenpanel.h"
#include "ui/documenttabs.h"
#include "ui/emptyprojectview.h"
#include "ui/files/filespanel.h"
#include "ui/guidewindow.h"
#include "ui/hostcheckdialog.h"
#include "ui/logsview.h"
#include "ui/ports/portspanel.h"
#include "ui/processes/processespanel.h"
#include "ui/projectpanel.h"
#include "ui/projecttabs.h"
#include "ui/resources/resourcespanel.h"
#include "ui/sandboxpanel.h"
#include "ui/schedules/schedulespanel.h"
#include "ui/terminal/terminalarea.h"
#include "ui/theme/icontheme.h"
#include "ui/workbench.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

namespace lizard::ui {

using lizard::models::ConnectionWatch;

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_projects(new ProjectPanel), m_sandboxes(new SandboxPanel),
      m_projectTabs(new ProjectTabs(m_sandboxes)), m_consoles(new ConsoleArea),
      m_tools(new QTabWidget), m_banner(new BannerWidget), m_connection(new QLabel),
      m_notesLabel(new QLabel)
{
    setWindowTitle(QStringLiteral("Lizard"));
    // The selected sandbox's tools; other features add theirs with toolTabs()->addTab().
    m_tools->setObjectName(QStringLiteral("sandboxTools"));
    m_tools->setDocumentMode(true);
    m_tools->addTab(m_consoles, QStringLiteral("Console"));
    // Terminal: interactive shells in the selected sandbox (lizard-local's PTY terminals).
    m_terminals = new TerminalArea;
    m_tools->addTab(m_terminals, QStringLiteral("Terminal"));
    connect(m_terminals, &TerminalArea::errorOccurred, this, &MainWindow::showError);
    connect(m_terminals, &TerminalArea::message, this, &MainWindow::showInfo);
    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(m_projectTabs); // Sandboxes | Snapshots | Volumes | Templates
    right->addWidget(m_tools);
    right->setStretchFactor(0, 2);
    right->setStretchFactor(1, 3);
    right->setSizes({300, 450});
    auto* main = new QSplitter(Qt::Horizontal);
    main->addWidget(m_projects);
    main->addWidget(right);
    main->setStretchFactor(0, 0);
    main->setStretchFactor(1, 1);
    main->setSizes({200, 1000});
    m_documents = new DocumentTabs(main);
    auto* central = new QWidget;
    m_central = new QVBoxLayout(central);
    m_central->setContentsMargins(8, 8, 8, 4);
    m_central->addWidget(m_banner);
    m_central->addWidget(m_documents, 1);
    setCentralWidget(central);
    // Files: the Files tab follows the selected sandbox; files open as documents.
    m_files = new files::FilesPanel;
    m_tools->addTab(m_files, QStringLiteral("Files"));
    connect(m_sandboxes, &SandboxPanel::currentSandboxChanged, m_files,
            &files::FilesPanel::showSandbox);
    connect(m_files, &files::FilesPanel::errorOccurred, this, &MainWindow::showError);
    connect(m_files, &files::FilesPanel::problem, this, &MainWindow::showProblem);
    connect(m_files, &files::FilesPanel::message, this, &MainWindow::showInfo);
    connect(m_files, &files::FilesPanel::openTerminalRequested, this,
            [this](const QString& sandboxId, const QString& dir) {
                m_tools->setCurrentWidget(m_terminals);
                m_terminals->openTerminal(sandboxId, dir);
            });
    // Changes: what the selected sandbox did to its template's files.
    m_changes = new changes::ChangesPanel;
    m_tools->addTab(m_changes, QStringLiteral("Changes"));
    connect(m_sandboxes, &SandboxPanel::currentSandboxChanged, m_changes,
            &changes::ChangesPanel::showSandbox);
    connect(m_changes, &changes::ChangesPanel::errorOccurred, this, &MainWindow::showError);
    connect(m_changes, &changes::ChangesPanel::message, this, &MainWindow::showInfo);
    // Ports: the Ports tab follows the selected sandbox; previews open as documents.
    m_ports = new ports::PortsPanel(m_documents);
    m_tools->addTab(m_ports, QStringLiteral("Ports"));
    connect(m_sandboxes, &SandboxPanel::currentSandboxChanged, m_ports,
            &ports::PortsPanel::showSandbox);
    connect(m_ports, &ports::PortsPanel::errorOccurred, this, &MainWindow::showError);
    connect(m_ports, &ports::PortsPanel::message, this, &MainWindow::showInfo);
    // Processes: every process of the selected sandbox, as a tree.
    m_processes = new processes::ProcessesPanel;
    m_tools->addTab(m_processes, QStringLiteral("Processes"));
    connect(m_sandboxes, &SandboxPanel::currentSandboxChanged, m_processes,
            &processes::ProcessesPanel::showSandbox);
    connect(m_processes, &processes::ProcessesPanel::errorOccurred, this, &MainWindow::showError);
    connect(m_processes, &processes::ProcessesPanel::message, this, &MainWindow::showInfo);
    // Schedules: commands the selected sandbox runs every so often or at set times.
    m_schedules = new schedules::SchedulesPanel;
    m_tools->addTab(m_schedules, QStringLiteral("Schedules"));
    connect(m_sandboxes, &SandboxPanel::currentSandboxChanged, m_schedules,
            &schedules::SchedulesPanel::showSandbox);
    connect(m_schedules, &schedules::SchedulesPanel::errorOccurred, this, &MainWindow::showError);
    connect(m_schedules, &schedules::SchedulesPanel::message, this, &MainWindow::showInfo);
    // Resources: what the selected sandbox uses, charted against its limits.
    m_resources = new resources::ResourcesPanel;
    m_tools->addTab(m_resources, QStringLiteral("Resources"));
    connect(m_sandboxes, &SandboxPanel::currentSandboxChanged, m_resources,
            &resources::ResourcesPanel::showSandbox);
    // Screen: the selected desktop sandbox's screen, live.
    m_screen = new desktop::ScreenPanel;
    m_tools->addTab(m_screen, QStringLiteral("Screen"));
    connect(m_sandboxes, &SandboxPanel::currentSandboxChanged, m_screen,
            &desktop::ScreenPanel::showSandbox);
    connect(m_screen, &desktop::ScreenPanel::errorOccurred, this, &MainWindow::showError);
    connect(m_screen, &desktop::ScreenPanel::message, this, &MainWindow::showInfo);
    // A desktop sandbox just made in New sandbox… is watched at once.
    connect(m_sandboxes, &SandboxPanel::desktopStarted, this, [this](const QString& id) {
        if (id == m_sandboxes->currentSandboxId())
            m_tools->setCurrentWidget(m_screen);
    });
    // Logs: the selected sandbox's system log, live.
    m_logs = new LogsView;
    m_tools->addTab(m_logs, QStringLiteral("Logs"));
    connect(m_sandboxes, &SandboxPanel::currentSandboxChanged, m_logs, &LogsView::showSandbox);

    m_connection->setObjectName(QStringLiteral("connectionLabel"));
    m_notesLabel->setObjectName(QStringLiteral("capabilityNotes"));
    m_notesLabel->setStyleSheet(QStringLiteral("QLabel { color: #8a6d00; }"));
    statusBar()->addPermanentWidget(m_notesLabel);
    statusBar()->addPermanentWidget(m_connection);
    buildMenus();
    m_workbench = new Workbench(this);

    connect(m_projects, &ProjectPanel::projectSelected, this, &MainWindow::onProjectSelected);
    connect(m_sandboxes, &SandboxPanel::currentSandboxChanged, m_consoles,
            &ConsoleArea::showSandbox);
    connect(m_sandboxes, &SandboxPanel::currentSandboxChanged, m_terminals,
            &TerminalArea::showSandbox);
    connect(m_sandboxes, &SandboxPanel::errorOccurred, this, &MainWindow::showError);
    connect(m_sandboxes, &SandboxPanel::message, this, &MainWindow::showInfo);
    connect(m_consoles, &ConsoleArea::errorOccurred, this, &MainWindow::showError);
    connect(m_consoles, &ConsoleArea::message, this, &MainWindow::showInfo);
    // Lifecycle: the Snapshots and Volumes tabs report like the sandbox list.
    connect(m_projectTabs, &ProjectTabs::errorOccurred, this, &MainWindow::showError);
    connect(m_projectTabs, &ProjectTabs::message, this, &MainWindow::showInfo);
    m_guideLocations = GuideWindow::defaultLocations();
    resize(1280, 800);
    clearBackend(QStringLiteral("Not connected"));
}

MainWindow::~MainWindow() = default;

void MainWindow::closeEvent(QCloseEvent* event)
{
    // Unsaved notebooks and editors ask first.
    if (m_documents->confirmCloseAll())
        event->accept();
    else
        event->ignore();
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(QStringLiteral("&Lizard"));
    file->addAction(IconTheme::icon(QStringLiteral("network-server")),
                    QStringLiteral("&Connections…"), this, &MainWindow::connectionsRequested);
    m_apiKeys = file->addAction(IconTheme::icon(QStringLiteral("dialog-password")),
                                QStringLiteral("&API keys…"), this, &MainWindow::showApiKeys);
    m_preferences =
        file->addAction(IconTheme::icon(QStringLiteral("preferences-system")),
                        QStringLiteral("&Preferences…"), this, &MainWindow::preferencesRequested);
    m_preferences->setMenuRole(QAction::PreferencesRole);
    file->addSeparator();
    file->addAction(IconTheme::icon(QStringLiteral("application-exit")), QStringLiteral("&Quit"),
                    QKeySequence::Quit, qApp, &QApplication::quit);
    QMenu* sandbox = menuBar()->addMenu(QStringLiteral("&Sandbox"));
    m_sandboxMenu = sandbox;
    sandbox->addAction(m_sandboxes->newAction());
    sandbox->addAction(m_sandboxes->copyIdAction());
    sandbox->addAction(m_sandboxes->extendAction());
    sandbox->addSeparator();
    sandbox->addAction(m_sandboxes->pauseAction());
    sandbox->addAction(m_sandboxes->resumeAction());
    sandbox->addAction(m_sandboxes->snapshotAction());
    sandbox->addAction(m_sandboxes->forkAction());
    sandbox->addSeparator();
    sandbox->addAction(m_sandboxes->killAction());
    m_help = menuBar()->addMenu(QStringLiteral("&Help"));
    m_userGuide =
        m_help->addAction(IconTheme::icon(QStringLiteral("help-contents")),
                          QStringLiteral("&User guide"), this, &MainWindow::showUserGuide);
    m_userGuide->setShortcut(QKeySequence::HelpContents);
    m_checkComputer = m_help->addAction(IconTheme::icon(QStringLiteral("lizard-host-check")),
                                        QStringLiteral("&Check this computer…"), this,
                                        &MainWindow::checkComputer);
    m_checkComputer->setObjectName(QStringLiteral("checkComputer"));
    m_about =
        m_help->addAction(IconTheme::icon(QStringLiteral("help-about")),
                          QStringLiteral("&About lizard-desktop"), this, &MainWindow::showAbout);
    m_about->setMenuRole(QAction::AboutRole);
}

void MainWindow::showUserGuide()
{
    // One guide window; asking again brings it forward.
    auto* guide = findChild<GuideWindow*>();
    if (guide == nullptr)
        guide = new GuideWindow(m_guideLocations, this);
    guide->show();
    guide->raise();
    guide->activateWindow();
}

void MainWindow::showAbout()
{
    auto* about = new AboutDialog(m_api, this);
    about->setAttribute(Qt::WA_DeleteOnClose);
    about->open();
}

void MainWindow::checkComputer()
{
    auto* check = new HostCheckDialog(m_hostCheckProgram, this);
    check->setAttribute(Qt::WA_DeleteOnClose);
    check->open();
}

void MainWindow::showApiKeys()
{
    if (!m_api) {
        showProblem(QStringLiteral("API keys: not connected to a server"));
        return;
    }
    auto* keys = new ApiKeysDialog(m_api, m_connectionLabel, this);
    keys->setAttribute(Qt::WA_DeleteOnClose);
    keys->open();
}

void MainWindow::addStrip(QWidget* strip)
{
    m_central->insertWidget(1, strip);
}

void MainWindow::clearBackend(const QString& statusText)
{
    m_consoles->setBackend(nullptr, nullptr);
    m_terminals->setBackend(nullptr, nullptr);
    m_sandboxes->emptyView()->setServer({}, {});
    m_sandboxes->emptyView()->setHostProblem({});
    m_files->setBackend(nullptr, m_documents);
    m_ports->setBackend(nullptr);
    m_processes->setBackend(nullptr);
    m_changes->setBackend(nullptr);
    m_schedules->setBackend(nullptr);
    m_resources->setBackend(nullptr);
    m_screen->setBackend(nullptr);
    m_logs->setBackend(nullptr);
    m_sandboxes->setBackend(nullptr, nullptr);
    m_projectTabs->setBackend(nullptr, nullptr);
    m_projects->setModel(nullptr);
    delete m_watch;
    m_watch = nullptr;
    delete m_actions;
    delete m_sandboxModel;
    delete m_projectModel;
    m_actions = nullptr;
    m_sandboxModel = nullptr;
    m_projectModel = nullptr;
    m_api = nullptr;
    m_notes.clear();
    updateNotesLabel();
    m_connection->setText(statusText);
    emit backendChanged();
}

void MainWindow::setBackend(client::LizardApi* api, const QString& connectionLabel,
                            const QStringList& notes, const QString& keyFile)
{
    clearBackend(connectionLabel);
    m_api = api;
    m_projectModel = new models::ProjectListModel(api, this);
    m_sandboxModel = new models::SandboxTableModel(api, this);
    m_actions = new models::SandboxActions(api, m_sandboxModel, this);
    m_watch = new ConnectionWatch(api, this);
    connect(m_watch, &ConnectionWatch::lost, this, [this](const QString& text) {
        showProblem(text);
        m_connection->setText(
            QStringLiteral("Connection lost: reconnecting to %1…").arg(m_connectionLabel));
    });
    connect(m_watch, &ConnectionWatch::restored, this, [this](const QString& text) {
        m_banner->showMessage(BannerWidget::Kind::Note, text);
        showInfo(text);
        m_connection->setText(QStringLiteral("Connected: ") + m_connectionLabel);
    });
    connect(m_projectModel, &models::ProjectListModel::operationFailed, this,
            &MainWindow::showError);
    connect(m_projectModel, &models::ProjectListModel::projectDeleted, this,
            [this] { showInfo(QStringLiteral("Project deleted")); });
    connect(m_sandboxModel, &models::SandboxTableModel::refreshFailed, this,
            &MainWindow::showError);
    connect(m_sandboxModel, &models::SandboxTableModel::refreshRecovered, this,
            [this] { showInfo(QStringLiteral("Connection restored")); });
    connect(m_sandboxModel, &models::SandboxTableModel::refreshed, this,
            &MainWindow::checkLimitsNote);
    m_projects->setModel(m_projectModel);
    m_sandboxes->setBackend(m_sandboxModel, m_actions);
    m_sandboxes->emptyView()->setServer(models::serverUrl(api), keyFile);
    m_projectTabs->setBackend(api, m_actions);
    m_consoles->setBackend(api, m_sandboxModel);
    m_terminals->setBackend(api, m_sandboxModel);
    m_files->setBackend(api, m_documents);
    m_ports->setBackend(api);
    m_processes->setBackend(api);
    m_changes->setBackend(api);
    m_schedules->setBackend(api);
    m_resources->setBackend(api);
    m_screen->setBackend(api);
    m_logs->setBackend(api);
    m_connectionLabel = connectionLabel;
    m_connection->setText(QStringLiteral("Connected: ") + connectionLabel);
    m_notes = notes;
    updateNotesLabel();
    // The server's "no sandboxes here", with its fix, where the user looks for sandboxes.
    static const QString unavailable = QStringLiteral("sandboxes unavailable: ");
    QString hostProblem;
    for (const QString& note : notes)
        if (note.startsWith(unavailable))
            hostProblem = note.mid(unavailable.size());
    m_sandboxes->emptyView()->setHostProblem(hostProblem);
    if (!m_notes.isEmpty())
        m_banner->showMessage(BannerWidget::Kind::Note,
                              QStringLiteral("This server: ") + m_notes.join(QStringLiteral("; ")));
    m_projectModel->refresh();
    emit backendChanged();
}

QString MainWindow::connectionText() const
{
    return m_connection->text();
}

void MainWindow::onProjectSelected(const QString& projectId, const QString& name)
{
    m_sandboxes->setProjectName(name);
    if (m_sandboxModel && m_sandboxModel->projectId() != projectId)
        m_sandboxModel->setProjectId(projectId);
    m_projectTabs->setProjectId(projectId);
    m_sandboxes->setProjectName(name); // enables "New sandbox" now that a project is set
}

void MainWindow::addCapabilityNote(const QString& note)
{
    if (note.isEmpty() || m_notes.contains(note))
        return;
    m_notes.append(note);
    updateNotesLabel();
}

void MainWindow::checkLimitsNote()
{
    // The server reports cpus only where cgroups enforce them, memoryMb where anything does.
    for (const auto& info : m_sandboxModel->sandboxes()) {
        if (info.limitsEnforcedBy == QLatin1String("rlimit")) {
            addCapabilityNote(
                QStringLiteral("cgroups not writable: only process and per-process memory limits"));
            return;
        }
        if (info.cpus <= 0 && info.memoryMb <= 0) {
            addCapabilityNote(QStringLiteral("resource limits not enforced"));
            return;
        }
    }
}

void MainWindow::updateNotesLabel()
{
    m_notesLabel->setText(
        m_notes.isEmpty() ? QString() : QStringLiteral("⚠ ") + m_notes.join(QStringLiteral(" · ")));
    m_notesLabel->setToolTip(m_notes.join(QLatin1Char('\n')));
}

void MainWindow::showError(const client::ApiError& error)
{
    if (m_watch && m_watch->isLost() && error.kind == client::ApiError::Kind::Network) {
        // The banner already says the connection is lost, in plainer words: keep it.
        statusBar()->showMessage(error.toDisplayString(), 15000);
        return;
    }
    showProblem(error.toDisplayString());
}

void MainWindow::showProblem(const QString& text)
{
    statusBar()->showMessage(text, 15000);
    m_banner->showMessage(BannerWidget::Kind::Error, text);
}

void MainWindow::showInfo(const QString& text)
{
    statusBar()->showMessage(text, 8000);
}

} // namespace lizard::ui
