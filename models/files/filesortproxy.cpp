#include "models/files/filesortproxy.h"

#include "models/files/sandboxfilemodel.h"

namespace lizard::models::files {

FileSortProxy::FileSortProxy(QObject* parent) : QSortFilterProxyModel(parent)
{
    setSortRole(SandboxFileModel::SortRole);
    setDynamicSortFilter(true);
}

bool FileSortProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    const bool leftDir = left.data(SandboxFileModel::IsDirRole).toBool();
    const bool rightDir = right.data(SandboxFileModel::IsDirRole).toBool();
    if (leftDir != rightDir) // the view reverses the order for descending: keep folders on top
        return sortOrder() == Qt::AscendingOrder ? leftDir : rightDir;
    const QVariant l = left.data(SandboxFileModel::SortRole);
    const QVariant r = right.data(SandboxFileModel::SortRole);
    const QPartialOrdering order = QVariant::compare(l, r);
    if (order == QPartialOrdering::Less)
        return true;
    if (order == QPartialOrdering::Greater)
        return false;
    // Ties (same size, same time) by name, A to Z in both directions (the proxy swaps the
    // arguments for a descending sort, so the comparison is swapped back here).
    const QString ln = left.siblingAtColumn(SandboxFileModel::NameColumn).data(SandboxFileModel::SortRole).toString();
    const QString rn = right.siblingAtColumn(SandboxFileModel::NameColumn).data(SandboxFileModel::SortRole).toString();
    return sortOrder() == Qt::AscendingOrder ? ln < rn : ln > rn;
}

} // namespace lizard::models::files
