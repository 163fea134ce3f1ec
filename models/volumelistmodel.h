#pragma once
// The volumes of one project as a table: name, size, attached to, status, created;
// create, grow and delete. Polls like the sandbox table, with minimal row updates.

#include "models/polledlistmodel.h"

namespace lizard::models {

namespace VolumeColumn {
enum : int { Name, Size, AttachedTo, Status, Created, Count };
}

class VolumeListModel : public PolledListModel<client::Volume>
{
    Q_OBJECT
public:
    enum Role {
        VolumeIdRole = Qt::UserRole + 1,
        NameRole,
        SizeGbRole,
        AttachedToRole,
        ActivityRole
    };

    explicit VolumeListModel(client::LizardApi* api, QObject* parent = nullptr);

    const client::Volume& volumeAt(int row) const { return itemAt(row); }
    void applyVolumes(const QList<client::Volume>& fresh);

    // In the current project; the table refreshes after each.
    void createVolume(const QString& name, int sizeGb, QObject* ctx,
                      client::Done<client::Volume> done);
    void resizeVolume(const QString& volumeId, int sizeGb, QObject* ctx,
                      client::Done<client::Volume> done);
    void deleteVolume(const QString& volumeId, QObject* ctx, client::Done<client::Unit> done);

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    static QString cellText(const client::Volume& volume, int column);

protected:
    client::PendingCall* startFetch(const QString& projectId, quint64 generation) override;
};

} // namespace lizard::models
