#include "models/volumelistmodel.h"

#include "models/timeformat.h"

namespace lizard::models {

using client::Volume;

VolumeListModel::VolumeListModel(client::LizardApi* api, QObject* parent) : PolledTableModel(api, parent) {}

client::PendingCall* VolumeListModel::startFetch(const QString& projectId, quint64 generation)
{
    return api()->listVolumes(projectId, this, [this, generation](client::Outcome<QList<Volume>> outcome) {
        if (!fetchDone(generation, outcome ? nullptr : &outcome.error(), QStringLiteral("List volumes")))
            return;
        applyVolumes(outcome.value());
        emit refreshed();
    });
}

void VolumeListModel::clearRows()
{
    m_activity.clear();
    if (m_rows.isEmpty())
        return;
    beginRemoveRows({}, 0, int(m_rows.size()) - 1);
    m_rows.clear();
    endRemoveRows();
}

void VolumeListModel::applyVolumes(const QList<Volume>& fresh)
{
    applyRows(m_rows, fresh, [](const Volume& v) { return v.id; },
              [](const Volume& a, const Volume& b) {
                  auto [first, last] = changedColumns(a, b, VolumeColumn::Count, &VolumeListModel::cellText);
                  if (first < 0 && a.sizeGb != b.sizeGb) // only a role changed
                      first = last = VolumeColumn::Size;
                  return std::pair{first, last};
              });
    for (auto it = m_activity.begin(); it != m_activity.end();) {
        if (rowOf(it.key()) < 0)
            it = m_activity.erase(it);
        else
            ++it;
    }
}

void VolumeListModel::setActivity(const QString& volumeId, const QString& text)
{
    if (m_activity.value(volumeId) == text)
        return;
    if (text.isEmpty())
        m_activity.remove(volumeId);
    else
        m_activity.insert(volumeId, text);
    const int row = rowOf(volumeId);
    if (row >= 0)
        emit dataChanged(index(row, VolumeColumn::Status), index(row, VolumeColumn::Status));
}

template <class T, class Fn>
void VolumeListModel::withApi(const QString& what, client::LizardApi::Done<T>& done, Fn fn)
{
    if (api() == nullptr || projectId().isEmpty()) {
        client::ApiError e;
        e.kind = client::ApiError::Kind::Network;
        e.message = api() == nullptr ? QStringLiteral("not connected") : QStringLiteral("no project selected");
        e.what = what;
        done(e);
        return;
    }
    fn(api(), projectId());
}

void VolumeListModel::createVolume(const QString& name, int sizeGb, QObject* ctx,
                                   client::LizardApi::Done<Volume> done)
{
    withApi<Volume>(QStringLiteral("Create volume"), done, [&](client::LizardApi* api, const QString& project) {
        QPointer<VolumeListModel> self = this;
        api->createVolume(project, name, sizeGb, ctx, [self, done](client::Outcome<Volume> outcome) {
            if (self && outcome && outcome.value().projectId == self->projectId())
                self->applyVolumes(self->m_rows + QList<Volume>{outcome.value()});
            if (self)
                self->refresh();
            done(std::move(outcome));
        });
    });
}

void VolumeListModel::resizeVolume(const QString& volumeId, int sizeGb, QObject* ctx,
                                   client::LizardApi::Done<Volume> done)
{
    withApi<Volume>(QStringLiteral("Grow volume"), done, [&](client::LizardApi* api, const QString& project) {
        setActivity(volumeId, QStringLiteral("growing to %1 GB…").arg(sizeGb));
        QPointer<VolumeListModel> self = this;
        api->resizeVolume(project, volumeId, sizeGb, ctx, [self, volumeId, done](client::Outcome<Volume> outcome) {
            if (self) {
                self->setActivity(volumeId, {});
                self->refresh();
            }
            done(std::move(outcome));
        });
    });
}

void VolumeListModel::deleteVolume(const QString& volumeId, QObject* ctx, client::LizardApi::Done<client::Unit> done)
{
    withApi<client::Unit>(QStringLiteral("Delete volume"), done, [&](client::LizardApi* api, const QString& project) {
        setActivity(volumeId, QStringLiteral("deleting…"));
        QPointer<VolumeListModel> self = this;
        api->deleteVolume(project, volumeId, ctx, [self, volumeId, done](client::Outcome<client::Unit> outcome) {
            if (self) {
                self->setActivity(volumeId, {});
                self->refresh();
            }
            done(std::move(outcome));
        });
    });
}

int VolumeListModel::rowOf(const QString& volumeId) const
{
    for (int row = 0; row < m_rows.size(); ++row)
        if (m_rows.at(row).id == volumeId)
            return row;
    return -1;
}

QString VolumeListModel::cellText(const Volume& v, int column)
{
    switch (column) {
    case VolumeColumn::Name: return v.name;
    case VolumeColumn::Size: {
        const QString size = QStringLiteral("%1 GB").arg(v.sizeGb);
        return v.sizeEnforced == std::optional<bool>(false) ? size + QStringLiteral(" (not enforced)") : size;
    }
    case VolumeColumn::AttachedTo: return v.attachedTo.isEmpty() ? QStringLiteral("—") : v.attachedTo;
    case VolumeColumn::Status: return v.status;
    case VolumeColumn::Created: return formatStarted(v.createdAt, QDateTime::currentDateTimeUtc());
    default: return {};
    }
}

int VolumeListModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_rows.size()); }

int VolumeListModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : VolumeColumn::Count;
}

QVariant VolumeListModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Volume& v = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole: {
        QString text = cellText(v, index.column());
        const QString doing = m_activity.value(v.id);
        if (index.column() == VolumeColumn::Status && !doing.isEmpty())
            text += (text.isEmpty() ? QString() : QStringLiteral(" · ")) + doing;
        return text;
    }
    case VolumeIdRole: return v.id;
    case NameRole: return v.name;
    case SizeGbRole: return v.sizeGb;
    case AttachedToRole: return v.attachedTo;
    case ActivityRole: return m_activity.value(v.id);
    default: return {};
    }
}

QVariant VolumeListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case VolumeColumn::Name: return QStringLiteral("Name");
    case VolumeColumn::Size: return QStringLiteral("Size");
    case VolumeColumn::AttachedTo: return QStringLiteral("Attached to");
    case VolumeColumn::Status: return QStringLiteral("Status");
    case VolumeColumn::Created: return QStringLiteral("Created");
    default: return {};
    }
}

} // namespace lizard::models
