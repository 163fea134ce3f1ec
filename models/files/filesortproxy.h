#pragma once
// Sorts a SandboxFileModel by any column with folders first in both directions (the file
// managers' habit); lazy listing passes through (canFetchMore/fetchMore are forwarded).

#include <QSortFilterProxyModel>

namespace lizard::models::files {

class SandboxFileModel;

class FileSortProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit FileSortProxy(QObject* parent = nullptr);

    void setSourceModel(QAbstractItemModel* model) override;

protected:
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    const SandboxFileModel* m_files = nullptr; // the source, when it is one (the fast path)
};

} // namespace lizard::models::files
