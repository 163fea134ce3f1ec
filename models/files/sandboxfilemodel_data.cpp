// SandboxFileModel: what each cell shows.
#include "models/files/sandboxfilemodel.h"
#include "models/files/sandboxfilemodel_node.h"

namespace lizard::models::files {

QString SandboxFileModel::formatSize(qint64 bytes)
{
    if (bytes < 1024)
        return QStringLiteral("%1 B").arg(bytes);
    static const char* const units[] = {"KiB", "MiB", "GiB", "TiB"};
    double value = double(bytes);
    int unit = -1;
    while (value >= 1024 && unit < 3) {
        value /= 1024;
        ++unit;
    }
    return QStringLiteral("%1 %2")
        .arg(value, 0, 'f', value < 10 ? 1 : 0)
        .arg(QLatin1String(units[unit]));
}

QVariant SandboxFileModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    const Node* node = nodeOf(index);
    const client::FileEntry& e = node->entry;
    const bool dir = node->isDir(); // a symlink to a folder too
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn:
            return e.name;
        case SizeColumn:
            return dir ? QString() : formatSize(e.size);
        case ModifiedColumn:
            return e.modifiedAt.isValid()
                       ? e.modifiedAt.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"))
                       : QString();
        case PermissionsColumn:
            return e.permissions.isEmpty() ? e.mode : e.permissions;
        }
        return {};
    case Qt::ToolTipRole:
        return e.symlinkTarget.isEmpty() ? e.path
                                         : QStringLiteral("%1 → %2").arg(e.path, e.symlinkTarget);
    case Qt::TextAlignmentRole:
        if (index.column() == SizeColumn)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
        return {};
    case PathRole:
        return e.path;
    case TypeRole:
        return e.type;
    case IsDirRole:
        return dir;
    case SizeRole:
        return e.size;
    case ModifiedRole:
        return e.modifiedAt;
    case SortRole:
        switch (index.column()) {
        case NameColumn:
            return e.name.toLower();
        case SizeColumn:
            return dir ? qint64(-1) : e.size;
        case ModifiedColumn:
            return e.modifiedAt.isValid() ? e.modifiedAt.toMSecsSinceEpoch() : qint64(0);
        case PermissionsColumn:
            return e.permissions.isEmpty() ? e.mode : e.permissions;
        }
        return {};
    }
    return {};
}

QVariant SandboxFileModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Name");
    case SizeColumn:
        return tr("Size");
    case ModifiedColumn:
        return tr("Modified");
    case PermissionsColumn:
        return tr("Permissions");
    }
    return {};
}

} // namespace lizard::models::files
