#pragma once
// The volumes of one project as a table: name, size, attached to, status, created;
// create, grow and delete. Polls like the sandbox table, with minimal row updates.

#include "models/polledtablemodel.h"

#include <QHash>

namespace lizard::models {

namespace VolumeColumn {
enum : int { Name, Size, AttachedTo, Status, Created, Count };
}

class VolumeListModel : public PolledTableModel
{
    Q_OBJECT
public:
    enum Role { VolumeIdRole = Qt::UserRole + 1, NameRole, SizeGbRole, AttachedToRole, ActivityRole };

    explicit VolumeListModel(client::LizardApi* api, QObject* parent = nullptr);

    int rowOf(const QString& volumeId) const;
    const client::Volume& volumeAt(int row) const { return m_rows.at(row); }
    const QList<client::Volume>& volumes() const { return m_rows; }
    void applyVolumes(const QList<client::Volume>& fresh);

    void setActivity(const QString& volumeId, const QString& text); // "growing…"; empty clears
    QString activity(const QString& volumeId) const { return m_activity.value(volumeId); }

    // In the current project; the table refreshes after each.
    void createVolume(const QString& name, int sizeGb, QObject* ctx, client::LizardApi::Done<client::Volume> done);
    void resizeVolume(const QString& volumeId, int sizeGb, QObject* ctx, client::LizardApi::Done<client::Volume> done);
    void deleteVolume(const QString& volumeId, QObject* ctx, client::LizardApi::Done<client::Unit> done);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QString cellText(const client::Volume& volume, int column);

protected:
    client::PendingCall* startFetch(const QString& projectId, quint64 generation) override;
    void clearRows() override;

private:
    // Runs fn(api, projectId) unless disconnected (then done gets the error); fn returns the call.
    template <class T, class Fn>
    void withApi(const QString& what, client::LizardApi::Done<T>& done, Fn fn);

    QList<client::Volume> m_rows;
    QHash<QString, QString> m_activity;
};

} // namespace lizard::models
