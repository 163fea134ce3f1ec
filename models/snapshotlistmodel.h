#pragma once
// The snapshots of one project as a table: name, status, source sandbox, size,
// created. Polls like the sandbox table; a snapshot that is still building shows it in its
// row until the server says ready or failed. Deleting is here too.

#include "models/polledtablemodel.h"

#include <QHash>

namespace lizard::models {

namespace SnapshotColumn {
enum : int { Name, Status, Source, Size, Created, Count };
}

class SnapshotListModel : public PolledTableModel
{
    Q_OBJECT
public:
    enum Role { SnapshotIdRole = Qt::UserRole + 1, StatusRole, ActivityRole };

    explicit SnapshotListModel(client::LizardApi* api, QObject* parent = nullptr);

    int rowOf(const QString& snapshotId) const;
    const client::Snapshot& snapshotAt(int row) const { return m_rows.at(row); }
    const QList<client::Snapshot>& snapshots() const { return m_rows; }
    void applySnapshots(const QList<client::Snapshot>& fresh);
    // A snapshot just created: shown at once, before the next poll has it.
    void addSnapshot(const client::Snapshot& snapshot);

    // What we are doing to it ("deleting…"), shown in the status column; empty clears.
    void setActivity(const QString& snapshotId, const QString& text);
    QString activity(const QString& snapshotId) const { return m_activity.value(snapshotId); }

    void deleteSnapshot(const QString& snapshotId, QObject* ctx, client::LizardApi::Done<client::Unit> done);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QString cellText(const client::Snapshot& snapshot, int column);

protected:
    client::PendingCall* startFetch(const QString& projectId, quint64 generation) override;
    void clearRows() override;

private:
    QList<client::Snapshot> m_rows;
    QHash<QString, QString> m_activity;
};

} // namespace lizard::models
