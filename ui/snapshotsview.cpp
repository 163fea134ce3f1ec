#include "ui/snapshotsview.h"

#include "models/sandboxactions.h"
#include "models/sandboxstaterules.h"
#include "models/snapshotlistmodel.h"
#include "ui/tableselection.h"

#include <QAction>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QStyle>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>

namespace lizard::ui {

using models::SnapshotListModel;

SnapshotsView::SnapshotsView(QWidget* parent)
    : QWidget(parent), m_view(new QTableView(this)), m_empty(new QLabel(this))
{
    auto* bar = new QToolBar(this);
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_restore = bar->addAction(style()->standardIcon(QStyle::SP_ArrowUp), QStringLiteral("Restore"));
    m_restore->setToolTip(QStringLiteral("Start a new sandbox with the snapshot's files"));
    m_delete = bar->addAction(style()->standardIcon(QStyle::SP_TrashIcon), QStringLiteral("Delete"));
    m_refresh = bar->addAction(style()->standardIcon(QStyle::SP_BrowserReload), QStringLiteral("Refresh"));

    m_view->setObjectName(QStringLiteral("snapshotTable"));
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setWordWrap(false);
    m_empty->setText(QStringLiteral("No snapshots yet. Select a sandbox and use Snapshot… to save its files."));
    m_empty->setStyleSheet(QStringLiteral("QLabel { color: palette(mid); }"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(bar);
    layout->addWidget(m_empty);
    layout->addWidget(m_view, 1);

    connect(m_restore, &QAction::triggered, this, [this] { restoreSnapshot(currentSnapshotId()); });
    connect(m_delete, &QAction::triggered, this, &SnapshotsView::confirmDelete);
    connect(m_refresh, &QAction::triggered, this, [this] {
        if (m_model)
            m_model->refresh();
    });
    connect(m_view, &QWidget::customContextMenuRequested, this, &SnapshotsView::showContextMenu);
    updateActions();
}

void SnapshotsView::setBackend(SnapshotListModel* model, models::SandboxActions* actions)
{
    m_model = model;
    m_actions = actions;
    m_view->setModel(model);
    updateActions();
    if (model == nullptr)
        return;
    m_view->horizontalHeader()->resizeSection(models::SnapshotColumn::Name, 220);
    m_view->horizontalHeader()->resizeSection(models::SnapshotColumn::Status, 160);
    m_view->horizontalHeader()->resizeSection(models::SnapshotColumn::Source, 190);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &SnapshotsView::updateActions);
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(model, signal, this, &SnapshotsView::updateActions);
    connect(model, &QAbstractItemModel::dataChanged, this, &SnapshotsView::updateActions);
    connect(model, &models::PolledTableModel::refreshed, this, &SnapshotsView::updateActions); // project set
    connect(model, &QAbstractItemModel::modelReset, this, &SnapshotsView::updateActions);
}

QString SnapshotsView::currentSnapshotId() const
{
    return selectedRowData(m_view, SnapshotListModel::SnapshotIdRole).toString();
}

void SnapshotsView::selectSnapshot(const QString& snapshotId)
{
    if (!m_model)
        return;
    const int row = m_model->rowOf(snapshotId);
    if (row >= 0)
        m_view->selectRow(row);
}

void SnapshotsView::updateActions()
{
    m_empty->setVisible(!m_model || m_model->rowCount() == 0);
    const QString id = currentSnapshotId();
    const int row = m_model && !id.isEmpty() ? m_model->rowOf(id) : -1;
    const bool idle = row >= 0 && m_model->activity(id).isEmpty();
    m_restore->setEnabled(idle && m_actions && m_model->snapshotAt(row).status == QLatin1String("ready"));
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
        emit message(QStringLiteral("Restored “%1” into %2").arg(snap.name, outcome.value().sandboxId));
        emit restored(outcome.value());
    });
}

void SnapshotsView::confirmDelete()
{
    const QString id = currentSnapshotId();
    if (id.isEmpty() || !m_model)
        return;
    const QString name = m_model->snapshotAt(m_model->rowOf(id)).name;
    const auto answer = QMessageBox::question(this, QStringLiteral("Delete snapshot"),
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
    m_model->deleteSnapshot(snapshotId, this, [this, snapshotId](client::Outcome<client::Unit> outcome) {
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
    const QModelIndex index = m_view->indexAt(pos);
    if (!index.isValid())
        return;
    m_view->selectRow(index.row());
    QMenu menu(this);
    menu.addAction(m_restore);
    menu.addSeparator();
    menu.addAction(m_delete);
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

} // namespace lizard::ui
