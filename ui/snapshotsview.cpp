#include "ui/snapshotsview.h"

#include "models/sandboxactions.h"
#include "models/sandboxstaterules.h"
#include "models/snapshotlistmodel.h"
#include "ui/tableselection.h"
#include "ui/theme/icontheme.h"

#include <QAction>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>

namespace lizard::ui {

using models::SnapshotListModel;

SnapshotsView::SnapshotsView(QWidget* parent)
    : ProjectTableView(
          QStringLiteral("snapshotTable"),
          QStringLiteral("No snapshots yet. Select a sandbox and use Snapshot… to save its files."),
          parent)
{
    m_restore = toolBar()->addAction(IconTheme::icon(QStringLiteral("document-revert")),
                                     QStringLiteral("Restore"));
    m_restore->setToolTip(QStringLiteral("Start a new sandbox with the snapshot's files"));
    m_delete = toolBar()->addAction(IconTheme::icon(QStringLiteral("edit-delete")),
                                    QStringLiteral("Delete"));
    m_refresh = toolBar()->addAction(IconTheme::icon(QStringLiteral("view-refresh")),
                                     QStringLiteral("Refresh"));
    view()->setContextMenuPolicy(Qt::CustomContextMenu);

    connect(m_restore, &QAction::triggered, this, [this] { restoreSnapshot(currentSnapshotId()); });
    connect(m_delete, &QAction::triggered, this, &SnapshotsView::confirmDelete);
    connect(m_refresh, &QAction::triggered, this, [this] {
        if (m_model)
            m_model->refresh();
    });
    connect(view(), &QWidget::customContextMenuRequested, this, &SnapshotsView::showContextMenu);
    updateActions();
}

void SnapshotsView::setBackend(SnapshotListModel* model, models::SandboxActions* actions)
{
    m_model = model;
    m_actions = actions;
    showModel(model, {{models::SnapshotColumn::Name, 220},
                      {models::SnapshotColumn::Status, 160},
                      {models::SnapshotColumn::Source, 190}});
}

QString SnapshotsView::currentSnapshotId() const
{
    return selectedText(SnapshotListModel::SnapshotIdRole);
}

void SnapshotsView::selectSnapshot(const QString& snapshotId)
{
    if (m_model)
        selectRow(m_model->rowOf(snapshotId));
}

void SnapshotsView::updateActions()
{
    ProjectTableView::updateActions();
    const QString id = currentSnapshotId();
    const int row = m_model && !id.isEmpty() ? m_model->rowOf(id) : -1;
    const bool idle = row >= 0 && m_model->activity(id).isEmpty();
    m_restore->setEnabled(idle && m_actions &&
                          m_model->snapshotAt(row).status == QLatin1String("ready"));
    m_delete->setEnabled(idle);
    m_refresh->setEnabled(m_model != nullptr);
}

void SnapshotsView::restoreSnapshot(const QString& snapshotId)
{
    if (!m_model || !m_actions || m_model->rowOf(snapshotId) < 0)
        return;
    const client::Snapshot snap = m_model->snapshotAt(m_model->rowOf(snapshotId));
    client::CreateSandboxRequest req;
    req.projectId = snap.projectId.isEmpty() ? m_model->projectId() : snap.projectId;
    req.snapshotId = snap.id;
    m_model->setActivity(snap.id, QStringLiteral("restoring…"));
    updateActions();
    QPointer<SnapshotListModel> model = m_model;
    m_actions->create(req, this, [this, model, snap](client::Outcome<client::SandboxInfo> outcome) {
        if (model)
            model->setActivity(snap.id, {});
        updateActions();
        if (!outcome) {
            client::ApiError error = models::withLimitDetails(outcome.error());
            error.what = QStringLiteral("Restore snapshot “%1”").arg(snap.name);
            emit errorOccurred(error);
            return;
        }
        emit message(
            QStringLiteral("Restored “%1” into %2").arg(snap.name, outcome.value().sandboxId));
        emit restored(outcome.value());
    });
}

void SnapshotsView::confirmDelete()
{
    const QString id = currentSnapshotId();
    if (id.isEmpty() || !m_model)
        return;
    const QString name = m_model->snapshotAt(m_model->rowOf(id)).name;
    const auto answer =
        QMessageBox::question(this, QStringLiteral("Delete snapshot"),
                              QStringLiteral("Delete snapshot “%1”? Its files are gone for good; "
                                             "sandboxes restored from it keep running.")
                                  .arg(name),
                              QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer == QMessageBox::Yes)
        deleteSnapshot(id);
}

void SnapshotsView::deleteSnapshot(const QString& snapshotId)
{
    if (!m_model)
        return;
    m_model->deleteSnapshot(
        snapshotId, this, [this, snapshotId](client::Outcome<client::Unit> outcome) {
            updateActions();
            if (outcome)
                emit message(QStringLiteral("Deleted snapshot %1").arg(snapshotId));
            else
                emit errorOccurred(outcome.error());
        });
    updateActions();
}

void SnapshotsView::showContextMenu(const QPoint& pos)
{
    const QModelIndex index = view()->indexAt(pos);
    if (!index.isValid())
        return;
    selectRow(index.row());
    QMenu menu(this);
    menu.addAction(m_restore);
    menu.addSeparator();
    menu.addAction(m_delete);
    menu.exec(view()->viewport()->mapToGlobal(pos));
}

} // namespace lizard::ui
