#pragma once
// The Processes tab of the selected sandbox: every process in it as a tree (ProcessTreeModel),
// refreshed every 2 s while the tab is visible, sortable by any column and filtered by a
// search box (pid, user or command; a match keeps its ancestors visible). Terminate (SIGTERM),
// Kill (SIGKILL) and Kill with children act on the selected processes; PID 1, the sandbox
// itself, is never offered. The selection, what is collapsed and the scroll position survive
// a refresh.

#include "client/outcome.h"

#include <QPointer>
#include <QSet>
#include <QWidget>

class QAction;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models {
class ProcessTreeModel;
} // namespace lizard::models

namespace lizard::ui::processes {

class ProcessesPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ProcessesPanel(QWidget* parent = nullptr);

    void setBackend(client::LizardApi* api);    // not owned; null: disconnected
    void showSandbox(const QString& sandboxId); // empty: placeholder

    models::ProcessTreeModel* model() const { return m_model; }
    QTreeView* view() const { return m_view; }
    QLineEdit* filter() const { return m_filter; }
    QString statusText() const;
    QList<int> selectedPids() const;
    void selectPid(int pid);

    QAction* terminateAction() const { return m_terminate; }
    QAction* killAction() const { return m_kill; }
    QAction* killTreeAction() const { return m_killTree; }
    QAction* refreshAction() const { return m_refresh; }

    // Sends `signal` to each pid (with descendants when `tree`), then refreshes.
    void signalPids(const QList<int>& pids, const QString& signal, bool tree);

signals:
    void errorOccurred(const lizard::client::ApiError& error);
    void message(const QString& text);

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void rememberViewState();
    void restoreViewState();
    void updateActions();
    void updateStatus();
    void showContextMenu(const QPoint& pos);

    client::LizardApi* m_api = nullptr;
    QString m_sandboxId;
    models::ProcessTreeModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTreeView* m_view;
    QLineEdit* m_filter;
    QLabel* m_status;
    QString m_lastError;
    QAction* m_terminate;
    QAction* m_kill;
    QAction* m_killTree;
    QAction* m_refresh;
    // What the user made of the tree, kept by pid across refreshes.
    QSet<int> m_selected;
    QSet<int> m_collapsed;
    int m_current = 0;
    int m_scroll = 0;
    bool m_restoring = false;
};

} // namespace lizard::ui::processes
