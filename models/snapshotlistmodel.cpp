#include "models/snapshotlistmodel.h"

#include "client/lizardapi.h"
#include "models/sizeformat.h"
#include "models/timeformat.h"

namespace lizard::models {

using client::Snapshot;

SnapshotListModel::SnapshotListModel(client::LizardApi* api, QObject* parent)
    : PolledListModel(api, SnapshotColumn::Count, SnapshotColumn::Status, parent)
{
}

client::PendingCall* SnapshotListModel::startFetch(const QString& projectId, quint64 generation)
{
    return api()->listSnapshots(projectId, this,
                                [this, generation](client::Outcome<QList<Snapshot>> outcome) {
                                    if (!fetchDone(generation, outcome ? nullptr : &outcome.error(),
                                                   QStringLiteral("List snapshots")))
                                        return;
                                    applySnapshots(outcome.value());
                                    emit refreshed();
                                });
}

void SnapshotListModel::applySnapshots(const QList<Snapshot>& fresh)
{
    applyItems(fresh, [](const Snapshot& a, const Snapshot& b) {
        return changedColumns(a, b, SnapshotColumn::Count, &SnapshotListModel::cellText);
    });
}

void SnapshotListModel::addSnapshot(const Snapshot& snapshot)
{
    if (rowOf(snapshot.id) >= 0 || (!projectId().isEmpty() && snapshot.projectId != projectId()))
        return;
    applySnapshots(m_rows + QList<Snapshot>{snapshot});
}

void SnapshotListModel::deleteSnapshot(const QString& snapshotId, QObject* ctx,
                                       client::Done<client::Unit> done)
{
    withActivity<client::Unit>(
        QStringLiteral("Delete snapshot"), snapshotId, QStringLiteral("deleting…"), std::move(done),
        [&](client::LizardApi* api, const QString&, auto finished) {
            api->deleteSnapshot(snapshotId, ctx, finished);
        },
        false); // a snapshot's id is enough
}

QString SnapshotListModel::cellText(const Snapshot& s, int column)
{
    switch (column) {
    case SnapshotColumn::Name:
        return s.name.isEmpty() ? s.id : s.name;
    case SnapshotColumn::Status:
        if (s.status == QLatin1String("failed") && !s.error.isEmpty())
            return QStringLiteral("failed: %1").arg(s.error);
        if (s.status == QLatin1String("building"))
            return QStringLiteral("building…");
        return s.status;
    case SnapshotColumn::Source:
        return s.sourceSandboxId;
    case SnapshotColumn::Size:
        return s.sizeBytes >= 0 ? formatBytes(s.sizeBytes) : QStringLiteral("—");
    case SnapshotColumn::Created:
        return formatStarted(s.createdAt, QDateTime::currentDateTimeUtc());
    default:
        return {};
    }
}

QVariant SnapshotListModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Snapshot& s = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        return displayText(s, index.column(), cellText(s, index.column()));
    case SnapshotIdRole:
        return s.id;
    case StatusRole:
        return s.status;
    case ActivityRole:
        return activity(s.id);
    case Qt::TextAlignmentRole:
        if (index.column() == SnapshotColumn::Size)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    default:
        return {};
    }
}

QVariant SnapshotListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case SnapshotColumn::Name:
        return QStringLiteral("Name");
    case SnapshotColumn::Status:
        return QStringLiteral("Status");
    case SnapshotColumn::Source:
        return QStringLiteral("Source sandbox");
    case SnapshotColumn::Size:
        return QStringLiteral("Size");
    case SnapshotColumn::Created:
        return QStringLiteral("Created");
    default:
        return {};
    }
}

} // namespace lizard::models
