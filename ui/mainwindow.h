#pragma once
// The main window: central document tabs whose first tab holds projects (left), the selected
// project's sandboxes (top right) and the selected sandbox's tools (Console, …; bottom right);
// further tabs are documents (notebooks, editors, previews). An error/note banner, and the
// active connection in the status bar. It reads models and calls SandboxActions; no HTTP.

#include "client/outcome.h"

#include <QMainWindow>
#include <QStringList>

class QLabel;
class QMenu;
class QTabWidget;
class QVBoxLayout;

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models {
class ProjectListModel;
class SandboxActions;
class SandboxTableModel;
} // namespace lizard::models

namespace lizard::models {
class ConnectionWatch;
} // namespace lizard::models

namespace lizard::ui {

class BannerWidget;
class ConsoleArea;
class TerminalArea;
class DocumentTabs;
class LogsView;
class ProjectPanel;
class ProjectTabs;
class SandboxPanel;
class Workbench;
namespace files {
class FilesPanel;
}
namespace desktop {
class ScreenPanel;
}
namespace ports {
class PortsPanel;
}
namespace resources {
class ResourcesPanel;
}
namespace schedules {
class SchedulesPanel;
}
namespace changes {
class ChangesPanel;
} // namespace changes
namespace processes {
class ProcessesPanel;
}

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Shows a new connection: builds fresh models on `api` (not owned; keep it alive until the
    // next setBackend or the window's end). `notes` are the server's capability notes; `keyFile`
    // is where a local server keeps its key (shown for the SDK; empty for the cloud).
    void setBackend(client::LizardApi* api, const QString& connectionLabel,
                    const QStringList& notes, const QString& keyFile = {});
    void clearBackend(const QString& statusText); // e.g. "Connecting to lizard-local…"
    void addCapabilityNote(const QString& note);
    QStringList capabilityNotes() const { return m_notes; }

    void showError(const client::ApiError& error);
    void
    showProblem(const QString& text); // failures without an API error (e.g. starting lizard-local)
    void showInfo(const QString& text);
    // A strip for a task in progress (e.g. ProgressStrip), shown under the banner until deleted.
    void addStrip(QWidget* strip);

    // Help ▸ User guide reads the first of these that exists (GuideWindow::defaultLocations()).
    void setGuideLocations(const QStringList& paths) { m_guideLocations = paths; }
    QAction* userGuideAction() const { return m_userGuide; }
    QAction* aboutAction() const { return m_about; }
    QAction* preferencesAction() const { return m_preferences; }
    QAction* apiKeysAction() const { return m_apiKeys; } // Lizard ▸ API keys…
    // Menus of features go before Help, which stays last.
    QMenu* helpMenu() const { return m_help; }
    // Help ▸ Check this computer asks this lizard-local (`doctor`); the app sets the one it
    // starts (empty: the dialog says none was found).
    void setHostCheckProgram(const QString& program) { m_hostCheckProgram = program; }
    QAction* checkComputerAction() const { return m_checkComputer; }
    QMenu* sandboxMenu() const { return m_sandboxMenu; }

    ProjectPanel* projectPanel() const { return m_projects; }
    SandboxPanel* sandboxPanel() const { return m_sandboxes; }
    ConsoleArea* consoleArea() const { return m_consoles; }
    // The selected sandbox's tools (Console first); features add their panels as tabs.
    QTabWidget* toolTabs() const { return m_tools; }
    // Central tabs: the home view first, then documents (notebooks, editors, previews).
    DocumentTabs* documentTabs() const { return m_documents; }
    client::LizardApi* api() const { return m_api; }
    BannerWidget* banner() const { return m_banner; }
    QString connectionText() const;
    models::ProjectListModel* projectModel() const { return m_projectModel; }
    models::SandboxTableModel* sandboxModel() const { return m_sandboxModel; }
    models::SandboxActions* sandboxActions() const { return m_actions; }
    files::FilesPanel* filesPanel() const { return m_files; }
    // Lifecycle: "Sandboxes | Snapshots | Volumes" of the selected project.
    ProjectTabs* projectTabs() const { return m_projectTabs; }
    ports::PortsPanel* portsPanel() const { return m_ports; }
    processes::ProcessesPanel* processesPanel() const { return m_processes; }
    changes::ChangesPanel* changesPanel() const { return m_changes; }
    schedules::SchedulesPanel* schedulesPanel() const { return m_schedules; }
    resources::ResourcesPanel* resourcesPanel() const { return m_resources; }
    desktop::ScreenPanel* screenPanel() const { return m_screen; }
    LogsView* logsView() const { return m_logs; }
    TerminalArea* terminalArea() const { return m_terminals; }
    // What feature controllers see of the window (ui/workbench.h).
    Workbench* workbench() const { return m_workbench; }

signals:
    void connectionsRequested();
    void preferencesRequested();
    // Notebook: api() and sandboxModel() changed (set, or cleared on a reconnect).
    void backendChanged();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildMenus();
    void showUserGuide();
    void showAbout();
    void checkComputer();
    void showApiKeys();
    void onProjectSelected(const QString& projectId, const QString& name);
    void checkLimitsNote();
    void updateNotesLabel();

    ProjectPanel* m_projects;
    SandboxPanel* m_sandboxes;
    ProjectTabs* m_projectTabs;
    ConsoleArea* m_consoles;
    QTabWidget* m_tools;
    DocumentTabs* m_documents = nullptr;
    BannerWidget* m_banner;
    QLabel* m_connection;
    QLabel* m_notesLabel;
    QVBoxLayout* m_central = nullptr;
    QMenu* m_help = nullptr;
    QMenu* m_sandboxMenu = nullptr;
    QAction* m_userGuide = nullptr;
    QAction* m_about = nullptr;
    QAction* m_checkComputer = nullptr;
    QString m_hostCheckProgram;
    QAction* m_preferences = nullptr;
    QAction* m_apiKeys = nullptr;
    QStringList m_guideLocations;
    client::LizardApi* m_api = nullptr; // not owned; see setBackend
    models::ProjectListModel* m_projectModel = nullptr;
    models::SandboxTableModel* m_sandboxModel = nullptr;
    models::SandboxActions* m_actions = nullptr;
    lizard::models::ConnectionWatch* m_watch =
        nullptr; // says when the server goes away and comes back
    QString m_connectionLabel;
    QStringList m_notes;
    files::FilesPanel* m_files = nullptr;
    ports::PortsPanel* m_ports = nullptr;
    processes::ProcessesPanel* m_processes = nullptr;
    changes::ChangesPanel* m_changes = nullptr;
    schedules::SchedulesPanel* m_schedules = nullptr;
    resources::ResourcesPanel* m_resources = nullptr;
    desktop::ScreenPanel* m_screen = nullptr;
    LogsView* m_logs = nullptr;
    TerminalArea* m_terminals = nullptr;
    Workbench* m_workbench = nullptr;
};

} // namespace lizard::ui
