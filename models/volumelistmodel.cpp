#include "models/volumelistmodel.h"

#include "client/lizardapi.h"
#include "models/timeformat.h"

namespace lizard::models {

using client::Volume;

VolumeListModel::VolumeListModel(client::LizardApi* api, QObject* parent)
    : PolledListModel(api, VolumeColumn::Count, VolumeColumn::Status, parent)
{
}

client::PendingCall* VolumeListModel::startFetch(const QString& projectId, quint64 generation)
{
    return api()->listVolumes(projectId, this,
                              [this, generation](client::Outcome<QList<Volume>> outcome) {
                                  if (!fetchDone(generation, outcome ? nullptr : &outcome.error(),
                                                 QStringLiteral("List volumes")))
                                      return;
                                  applyVolumes(outcome.value());
                                  emit refreshed();
                              });
}

void VolumeListModel::applyVolumes(const QList<Volume>& fresh)
{
    applyItems(fresh, [](const Volume& a, const Volume& b) {
        auto [first, last] = changedColumns(a, b, VolumeColumn::Count, &VolumeListModel::cellText);
        if (first < 0 && a.sizeGb != b.sizeGb) // only a role changed
            first = last = VolumeColumn::Size;
        return std::pair{first, last};
    });
}

void VolumeListModel::createVolume(const QString& name, int sizeGb, QObject* ctx,
                                   client::Done<Volume> done)
{
    withApi<Volume>(
        QStringLiteral("Create volume"), done, [&](client::LizardApi* api, const QString& project) {
            QPointer<VolumeListModel> self = this;
            api->createVolume(
                project, name, sizeGb, ctx, [self, done](client::Outcome<Volume> outcome) {
                    if (self && outcome && outcome.value().projectId == self->projectId())
                        self->applyVolumes(self->items() + QList<Volume>{outcome.value()});
                    if (self)
                        self->refresh();
                    done(std::move(outcome));
                });
        });
}

void VolumeListModel::resizeVolume(const QString& volumeId, int sizeGb, QObject* ctx,
                                   client::Done<Volume> done)
{
    withActivity<Volume>(QStringLiteral("Grow volume"), volumeId,
                         QStringLiteral("growing to %1 GB…").arg(sizeGb), std::move(done),
                         [&](client::LizardApi* api, const QString& project, auto finished) {
                             api->resizeVolume(project, volumeId, sizeGb, ctx, finished);
                         });
}

void VolumeListModel::deleteVolume(const QString& volumeId, QObject* ctx,
                                   client::Done<client::Unit> done)
{
    withActivity<client::Unit>(QStringLiteral("Delete volume"), volumeId,
                               QStringLiteral("deleting…"), std::move(done),
                               [&](client::LizardApi* api, const QString& project, auto finished) {
                                   api->deleteVolume(project, volumeId, ctx, finished);
                               });
}

QString VolumeListModel::cellText(const Volume& v, int column)
{
    switch (column) {
    case VolumeColumn::Name:
        return v.name;
    case VolumeColumn::Size: {
        const QString size = QStringLiteral("%1 GB").arg(v.sizeGb);
        return v.sizeEnforced == std::optional<bool>(false)
                   ? size + QStringLiteral(" (not enforced)")
                   : size;
    }
    case VolumeColumn::AttachedTo:
        return v.attachedTo.isEmpty() ? QStringLiteral("—") : v.attachedTo;
    case VolumeColumn::Status:
        return v.status;
    case VolumeColumn::Created:
        return formatStarted(v.createdAt, QDateTime::currentDateTimeUtc());
    default:
        return {};
    }
}

QVariant VolumeListModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Volume& v = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        return displayText(v, index.column(), cellText(v, index.column()));
    case VolumeIdRole:
        return v.id;
    case NameRole:
        return v.name;
    case SizeGbRole:
        return v.sizeGb;
    case AttachedToRole:
        return v.attachedTo;
    case ActivityRole:
        return activity(v.id);
    default:
        return {};
    }
}

QVariant VolumeListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case VolumeColumn::Name:
        return QStringLiteral("Name");
    case VolumeColumn::Size:
        return QStringLiteral("Size");
    case VolumeColumn::AttachedTo:
        return QStringLiteral("Attached to");
    case VolumeColumn::Status:
        return QStringLiteral("Status");
    case VolumeColumn::Created:
        return QStringLiteral("Created");
    default:
        return {};
    }
}

} // namespace lizard::models
