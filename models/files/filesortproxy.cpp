#include "models/files/filesortproxy.h"

#include "models/files/sandboxfilemodel.h"

namespace lizard::models::files {

FileSortProxy::FileSortProxy(QObject* parent) : QSortFilterProxyModel(parent)
{
    setSortRole(SandboxFileModel::SortRole);
    setDynamicSortFilter(true);
}

void FileSortProxy::setSourceModel(QAbstractItemModel* model)
{
    m_files = qobject_cast<const SandboxFileModel*>(model);
    QSortFilterProxyModel::setSourceModel(model);
}

bool FileSortProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    if (m_files != nullptr) {
        const bool leftDir = m_files->isDir(left);
        const bool rightDir = m_files->isDir(right);
        if (leftDir != rightDir) // the view reverses the order for descending: keep folders on top
            return sortOrder() == Qt::AscendingOrder ? leftDir : rightDir;
        if (const int c = m_files->compare(left, right, left.column()); c != 0)
            return c < 0;
        // Ties (same size, same time) by name, A to Z in both directions (the proxy swaps the
        // arguments for a descending sort, so the comparison is swapped back here).
        const int byName = m_files->compare(left, right, SandboxFileModel::NameColumn);
        return sortOrder() == Qt::AscendingOrder ? byName < 0 : byName > 0;
    }
    return QSortFilterProxyModel::lessThan(left,
                                           right); // not a SandboxFileModel: the sort role only
}

} // namespace lizard::models::files
