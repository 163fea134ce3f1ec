#pragma once
// The project's snapshots: status, source sandbox, size, created; Restore (a new
// sandbox from the snapshot, in its project) and Delete (confirmed). Reads SnapshotListModel,
// restores through SandboxActions.

#include "client/lizardapi.h"

#include <QPointer>
#include <QWidget>

class QAction;
class QLabel;
class QTableView;

namespace lizard::models {
class SandboxActions;
class SnapshotListModel;
}

namespace lizard::ui {

class SnapshotsView : public QWidget
{
    Q_OBJECT
public:
    explicit SnapshotsView(QWidget* parent = nullptr);

    void setBackend(models::SnapshotListModel* model, models::SandboxActions* actions); // not owned
    QString currentSnapshotId() const;
    void selectSnapshot(const QString& snapshotId);
    QTableView* view() const { return m_view; }
    QAction* restoreAction() const { return m_restore; }
    QAction* deleteAction() const { return m_delete; }
    QAction* refreshAction() const { return m_refresh; }

    // What the actions do once asked (Delete asks first).
    void restoreSnapshot(const QString& snapshotId);
    void deleteSnapshot(const QString& snapshotId);

signals:
    void restored(const lizard::client::SandboxInfo& sandbox);
    void errorOccurred(const lizard::client::ApiError& error);
    void message(const QString& text);

private:
    void confirmDelete();
    void updateActions();
    void showContextMenu(const QPoint& pos);

    QPointer<models::SnapshotListModel> m_model;
    QPointer<models::SandboxActions> m_actions;
    QTableView* m_view;
    QLabel* m_empty;
    QAction* m_restore;
    QAction* m_delete;
    QAction* m_refresh;
};

} // namespace lizard::ui
