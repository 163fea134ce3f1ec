#include "models/snapshotlistmodel.h"

#include "models/sizeformat.h"
#include "models/timeformat.h"

namespace lizard::models {

using client::Snapshot;

SnapshotListModel::SnapshotListModel(client::LizardApi* api, QObject* parent) : PolledTableModel(api, parent) {}

client::PendingCall* SnapshotListModel::startFetch(const QString& projectId, quint64 generation)
{
    return api()->listSnapshots(projectId, this, [this, generation](client::Outcome<QList<Snapshot>> outcome) {
        if (!fetchDone(generation, outcome ? nullptr : &outcome.error(), QStringLiteral("List snapshots")))
            return;
        applySnapshots(outcome.value());
        emit refreshed();
    });
}

void SnapshotListModel::clearRows()
{
    m_activity.clear();
    if (m_rows.isEmpty())
        return;
    beginRemoveRows({}, 0, int(m_rows.size()) - 1);
    m_rows.clear();
    endRemoveRows();
}

void SnapshotListModel::applySnapshots(const QList<Snapshot>& fresh)
{
    applyRows(m_rows, fresh, [](const Snapshot& s) { return s.id; },
              [](const Snapshot& a, const Snapshot& b) {
                  return changedColumns(a, b, SnapshotColumn::Count, &SnapshotListModel::cellText);
              });
    for (auto it = m_activity.begin(); it != m_activity.end();) {
        if (rowOf(it.key()) < 0)
            it = m_activity.erase(it);
        else
            ++it;
    }
}

void SnapshotListModel::addSnapshot(const Snapshot& snapshot)
{
    if (rowOf(snapshot.id) >= 0 || (!projectId().isEmpty() && snapshot.projectId != projectId()))
        return;
    applySnapshots(m_rows + QList<Snapshot>{snapshot});
}

void SnapshotListModel::setActivity(const QString& snapshotId, const QString& text)
{
    if (m_activity.value(snapshotId) == text)
        return;
    if (text.isEmpty())
        m_activity.remove(snapshotId);
    else
        m_activity.insert(snapshotId, text);
    const int row = rowOf(snapshotId);
    if (row >= 0)
        emit dataChanged(index(row, SnapshotColumn::Status), index(row, SnapshotColumn::Status));
}

void SnapshotListModel::deleteSnapshot(const QString& snapshotId, QObject* ctx,
                                       client::LizardApi::Done<client::Unit> done)
{
    if (api() == nullptr) {
        client::ApiError e;
        e.kind = client::ApiError::Kind::Network;
        e.message = QStringLiteral("not connected");
        e.what = QStringLiteral("Delete snapshot");
        done(e);
        return;
    }
    setActivity(snapshotId, QStringLiteral("deleting…"));
    QPointer<SnapshotListModel> self = this;
    api()->deleteSnapshot(snapshotId, ctx, [self, snapshotId, done](client::Outcome<client::Unit> outcome) {
        if (self) {
            self->setActivity(snapshotId, {});
            self->refresh();
        }
        done(std::move(outcome));
    });
}

int SnapshotListModel::rowOf(const QString& snapshotId) const
{
    for (int row = 0; row < m_rows.size(); ++row)
        if (m_rows.at(row).id == snapshotId)
            return row;
    return -1;
}

QString SnapshotListModel::cellText(const Snapshot& s, int column)
{
    switch (column) {
    case SnapshotColumn::Name: return s.name.isEmpty() ? s.id : s.name;
    case SnapshotColumn::Status:
        if (s.status == QLatin1String("failed") && !s.error.isEmpty())
            return QStringLiteral("failed: %1").arg(s.error);
        if (s.status == QLatin1String("building"))
            return QStringLiteral("building…");
        return s.status;
    case SnapshotColumn::Source: return s.sourceSandboxId;
    case SnapshotColumn::Size: return s.sizeBytes >= 0 ? formatBytes(s.sizeBytes) : QStringLiteral("—");
    case SnapshotColumn::Created: return formatStarted(s.createdAt, QDateTime::currentDateTimeUtc());
    default: return {};
    }
}

int SnapshotListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int SnapshotListModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : SnapshotColumn::Count;
}

QVariant SnapshotListModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Snapshot& s = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole: {
        QString text = cellText(s, index.column());
        const QString doing = m_activity.value(s.id);
        if (index.column() == SnapshotColumn::Status && !doing.isEmpty())
            text += QStringLiteral(" · ") + doing;
        return text;
    }
    case SnapshotIdRole: return s.id;
    case StatusRole: return s.status;
    case ActivityRole: return m_activity.value(s.id);
    case Qt::TextAlignmentRole:
        if (index.column() == SnapshotColumn::Size)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    default: return {};
    }
}

QVariant SnapshotListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case SnapshotColumn::Name: return QStringLiteral("Name");
    case SnapshotColumn::Status: return QStringLiteral("Status");
    case SnapshotColumn::Source: return QStringLiteral("Source sandbox");
    case SnapshotColumn::Size: return QStringLiteral("Size");
    case SnapshotColumn::Created: return QStringLiteral("Created");
    default: return {};
    }
}

} // namespace lizard::models
