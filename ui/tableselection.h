#pragma once
// The selected row of a single-selection table view, read through one data role.

#include <QAbstractItemView>
#include <QItemSelectionModel>
#include <QVariant>

namespace lizard::ui {

// The data of the first selected row under role; an invalid QVariant when nothing is selected.
inline QVariant selectedRowData(const QAbstractItemView* view, int role)
{
    if (view->selectionModel() == nullptr)
        return {};
    const QModelIndexList rows = view->selectionModel()->selectedRows();
    return rows.isEmpty() ? QVariant() : rows.first().data(role);
}

} // namespace lizard::ui
