#pragma once
// Wires lifecycle into the main window: the Lifecycle tab (the selected sandbox's countdown and
// policies), a warning 5 minutes before a sandbox of an open notebook or console ends (the
// system tray's message where there is a tray, and always a strip in the window with Extend),
// and Sandbox ▸ Clean up… (what is left running or paused across all projects).

#include "client/types.h"

#include <QHash>
#include <QObject>
#include <QPointer>

class QAction;
class QSystemTrayIcon;

namespace lizard::models {
class SandboxEndWatch;
}

namespace lizard::ui {
class Workbench;
}

namespace lizard::ui::lifecycle {

class CleanupDialog;
class EndWarningStrip;
class LifecyclePanel;

class LifecycleController : public QObject
{
    Q_OBJECT
public:
    explicit LifecycleController(Workbench* window, QObject* parent = nullptr);

    LifecyclePanel* panel() const { return m_panel; }
    models::SandboxEndWatch* endWatch() const { return m_watch; }
    QAction* cleanupAction() const { return m_cleanup; }
    EndWarningStrip* warningFor(const QString& sandboxId) const;
    CleanupDialog* cleanupDialog() const;
    // The tray's icon once a warning used it (null where the desktop has no tray).
    QSystemTrayIcon* trayIcon() const { return m_tray; }
    void openCleanup();

private:
    QStringList workedOn() const; // the sandboxes of open documents and consoles
    QString whereText(const QString& sandboxId) const;
    void warn(const client::SandboxInfo& info);
    void extend(const QString& sandboxId, int minutes);

    Workbench* m_window;
    LifecyclePanel* m_panel;
    models::SandboxEndWatch* m_watch;
    QAction* m_cleanup;
    QHash<QString, QPointer<EndWarningStrip>> m_strips;
    QSystemTrayIcon* m_tray = nullptr;
    QPointer<CleanupDialog> m_dialog;
};

} // namespace lizard::ui::lifecycle
