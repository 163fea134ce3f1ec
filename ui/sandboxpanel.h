#pragma once
// The sandbox table of the selected project with its actions (toolbar and context menu):
// New sandbox…, Pause, Resume, Snapshot…, Fork…, Kill (confirmed), Extend lifetime…, Copy id.
// Several rows can be selected: Pause, Resume, Kill and Extend act on every selected sandbox
// they fit (models/sandboxstaterules.h); Snapshot and Fork on one. Above the table, filters
// by status and template and a search box (models/sandboxfilter.h) narrow what is shown.

#include "client/outcome.h"

#include <QPointer>
#include <QWidget>

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QStackedWidget;
class QTableView;
class QToolBar;

namespace lizard::models {
class SandboxActions;
class SandboxFilterModel;
class SandboxTableModel;
} // namespace lizard::models

namespace lizard::ui {

class EmptyProjectView;

class SandboxPanel : public QWidget
{
    Q_OBJECT
public:
    explicit SandboxPanel(QWidget* parent = nullptr);

    void setBackend(models::SandboxTableModel* model, models::SandboxActions* actions); // not owned
    void setProjectName(const QString& name);
    // The current row if it is selected, else the first selected one.
    QString currentSandboxId() const;
    QStringList selectedSandboxIds() const; // in the table's order
    void selectSandbox(const QString& sandboxId);
    void selectSandboxes(const QStringList& sandboxIds); // the first becomes current
    // A sandbox just made (dialog, restore): in the table at once, and selected.
    void showNewSandbox(const client::SandboxInfo& info);
    QTableView* view() const { return m_view; }
    QAction* newAction() const { return m_new; }
    QAction* killAction() const { return m_kill; }
    QAction* extendAction() const { return m_extend; }
    QAction* copyIdAction() const { return m_copy; }
    QAction* pauseAction() const { return m_pause; }
    QAction* resumeAction() const { return m_resume; }
    QAction* snapshotAction() const { return m_snapshot; }
    QAction* forkAction() const { return m_fork; }
    models::SandboxFilterModel* filterModel() const { return m_filter; }
    QLineEdit* searchBox() const { return m_search; }
    QComboBox* statusFilter() const { return m_statusFilter; }
    QComboBox* templateFilter() const { return m_templateFilter; }
    QString shownText() const; // "3 of 20 shown" while filtering

    // While the project's list has loaded and is empty, this view stands in for the table.
    EmptyProjectView* emptyView() const { return m_empty; }
    bool showsEmptyProject() const;
    // An action that makes a sandbox in the current project (e.g. "New notebook"): first on the
    // toolbar, on the empty-project view, enabled while a project is selected. Set once.
    void setNewNotebookAction(QAction* action);

    // Adds a feature's action on the selected sandbox (e.g. "Open notebook") to the toolbar and
    // the context menu. It is enabled while a sandbox is selected; the handler reads
    // currentSandboxId().
    void addSandboxAction(QAction* action);

    // Kill without asking (the Kill action asks first).
    void killSandbox(const QString& sandboxId);
    void killSandboxes(const QStringList& sandboxIds);
    // Lifecycle (sandboxpanel_lifecycle.cpp): what the actions do once asked.
    void pauseSandbox(const QString& sandboxId);
    void resumeSandbox(const QString& sandboxId);
    void snapshotSandbox(const QString& sandboxId, const QString& name);
    // A desktop sandbox's screen at `size` (what New sandbox… asked for once the sandbox is up).
    void startDesktop(const QString& sandboxId, QSize size);

signals:
    void currentSandboxChanged(const QString& sandboxId);
    void desktopStarted(const QString& sandboxId);
    void errorOccurred(const lizard::client::ApiError& error);
    void message(const QString& text);

private:
    void newSandbox();
    void confirmKill();
    void extendLifetime();
    void copyId();
    void askSnapshotName();
    void openForkDialog();
    void createLifecycleActions();
    void updateActions();
    void updateEmptyState();
    void updateFilterChoices();
    void updateShown();
    // The selected sandboxes `action` fits now.
    QStringList selectedFor(int action) const;
    void showContextMenu(const QPoint& pos);

    QPointer<models::SandboxTableModel> m_model;
    QPointer<models::SandboxActions> m_actions;
    models::SandboxFilterModel* m_filter;
    QLineEdit* m_search;
    QComboBox* m_statusFilter;
    QComboBox* m_templateFilter;
    QLabel* m_shown;
    QTableView* m_view;
    EmptyProjectView* m_empty;
    QStackedWidget* m_stack;
    QAction* m_newNotebook = nullptr;
    QLabel* m_title;
    QToolBar* m_bar;
    QList<QAction*> m_extra;
    QAction* m_new;
    QAction* m_kill;
    QAction* m_extend;
    QAction* m_copy;
    QAction* m_pause = nullptr;
    QAction* m_resume = nullptr;
    QAction* m_snapshot = nullptr;
    QAction* m_fork = nullptr;
    QString m_lastId;
};

} // namespace lizard::ui
