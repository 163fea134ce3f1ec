#pragma once
// The project's snapshots: status, source sandbox, size, created; Restore (a new
// sandbox from the snapshot, in its project) and Delete (confirmed). Reads SnapshotListModel,
// restores through SandboxActions.

#include "ui/projecttableview.h"

#include <QPointer>

class QAction;

namespace lizard::models {
class SandboxActions;
class SnapshotListModel;
} // namespace lizard::models

namespace lizard::ui {

class SnapshotsView : public ProjectTableView
{
    Q_OBJECT
public:
    explicit SnapshotsView(QWidget* parent = nullptr);

    void setBackend(models::SnapshotListModel* model, models::SandboxActions* actions); // not owned
    QString currentSnapshotId() const;
    void selectSnapshot(const QString& snapshotId);
    QAction* restoreAction() const { return m_restore; }
    QAction* deleteAction() const { return m_delete; }
    QAction* refreshAction() const { return m_refresh; }

    // What the actions do once asked (Delete asks first).
    void restoreSnapshot(const QString& snapshotId);
    void deleteSnapshot(const QString& snapshotId);

signals:
    void restored(const lizard::client::SandboxInfo& sandbox);

private:
    void confirmDelete();
    void updateActions() override;
    void showContextMenu(const QPoint& pos);

    QPointer<models::SnapshotListModel> m_model;
    QPointer<models::SandboxActions> m_actions;
    QAction* m_restore;
    QAction* m_delete;
    QAction* m_refresh;
};

} // namespace lizard::ui
