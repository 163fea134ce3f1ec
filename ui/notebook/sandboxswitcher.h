#pragma once
// Moves open notebooks between sandboxes: "Attach to sandbox…" (a running sandbox of the
// project, picked in AttachSandboxDialog) and "Run on a new sandbox" (NotebookLauncher with the
// notebook's template and size, shown in the window's progress strip; optionally Run all after).
// Also decides whether a notebook's sandbox is auto-extended: local sandboxes and cloud ones
// each have their own setting.

#include <QObject>
#include <QPointer>

namespace lizard::client {
class LizardApi;
}

namespace lizard::notebook {
class NotebookLauncher;
} // namespace lizard::notebook

namespace lizard::ui {
class Workbench;
}

namespace lizard::ui::notebook {

class AttachSandboxDialog;
class NotebookPage;

class SandboxSwitcher : public QObject
{
    Q_OBJECT
public:
    explicit SandboxSwitcher(Workbench* window, QObject* parent = nullptr);

    void setNewSandboxLifetime(int minutes) { m_lifetimeMinutes = minutes; }
    // Auto-extend for sandboxes of a server on this computer (lizard-local) and of other servers.
    void setAutoExtendPolicy(bool local, bool cloud);
    bool autoExtendFor(const client::LizardApi* api) const;
    bool autoExtendLocal() const { return m_autoExtendLocal; }
    bool autoExtendCloud() const { return m_autoExtendCloud; }

    // Wires a page's actions to this switcher and gives it the connection (again after a
    // reconnect).
    void adopt(NotebookPage* page);
    void connectionChanged(client::LizardApi* api, const QList<NotebookPage*>& pages);

    // Opens the dialog (non-modal); the notebook moves when the user picks a sandbox.
    AttachSandboxDialog* attachInteractive(NotebookPage* page);
    void attach(NotebookPage* page, const QString& sandboxId);
    void runOnNewSandbox(NotebookPage* page, bool thenRunAll);
    lizard::notebook::NotebookLauncher* launcherFor(NotebookPage* page) const;

signals:
    void attached(lizard::ui::notebook::NotebookPage* page, const QString& sandboxId);
    void runOnNewFailed(const QString& message);

private:
    Workbench* m_window;
    int m_lifetimeMinutes = 60;
    bool m_autoExtendLocal = true;
    bool m_autoExtendCloud = false;
    QList<QPair<QPointer<NotebookPage>, QPointer<lizard::notebook::NotebookLauncher>>> m_launchers;
};

} // namespace lizard::ui::notebook
