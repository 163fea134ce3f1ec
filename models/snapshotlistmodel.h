#pragma once
// The snapshots of one project as a table: name, status, source sandbox, size,
// created. Polls like the sandbox table; a snapshot that is still building shows it in its
// row until the server says ready or failed. Deleting is here too.

#include "models/polledlistmodel.h"

namespace lizard::models {

namespace SnapshotColumn {
enum : int { Name, Status, Source, Size, Created, Count };
}

class SnapshotListModel : public PolledListModel<client::Snapshot>
{
    Q_OBJECT
public:
    enum Role { SnapshotIdRole = Qt::UserRole + 1, StatusRole, ActivityRole };

    explicit SnapshotListModel(client::LizardApi* api, QObject* parent = nullptr);

    const client::Snapshot& snapshotAt(int row) const { return itemAt(row); }
    void applySnapshots(const QList<client::Snapshot>& fresh);
    // A snapshot just created: shown at once, before the next poll has it.
    void addSnapshot(const client::Snapshot& snapshot);

    void deleteSnapshot(const QString& snapshotId, QObject* ctx, client::Done<client::Unit> done);

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    static QString cellText(const client::Snapshot& snapshot, int column);

protected:
    client::PendingCall* startFetch(const QString& projectId, quint64 generation) override;
};

} // namespace lizard::models
