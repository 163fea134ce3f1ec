#pragma once
// Sorts a SandboxFileModel by any column with folders first in both directions (the file
// managers' habit); lazy listing passes through (canFetchMore/fetchMore are forwarded).

#include <QSortFilterProxyModel>

namespace lizard::models::files {

class FileSortProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit FileSortProxy(QObject* parent = nullptr);

protected:
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;
};

} // namespace lizard::models::files
