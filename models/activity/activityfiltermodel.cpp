#include "models/activity/activityfiltermodel.h"

#include "models/activity/activitylistmodel.h"

namespace lizard::models {

ActivityFilterModel::ActivityFilterModel(QObject* parent) : QSortFilterProxyModel(parent) {}

void ActivityFilterModel::setGroups(int mask)
{
    if (mask == m_groups)
        return;
    m_groups = mask;
    invalidateFilter();
}

void ActivityFilterModel::setSearch(const QString& text)
{
    if (text == m_search)
        return;
    m_search = text;
    invalidateFilter();
}

void ActivityFilterModel::setShowHousekeeping(bool show)
{
    if (show == m_showHousekeeping)
        return;
    m_showHousekeeping = show;
    invalidateFilter();
}

bool ActivityFilterModel::filterAcceptsRow(int row, const QModelIndex& parent) const
{
    const QModelIndex i = sourceModel()->index(row, 0, parent);
    if (!m_showHousekeeping && i.data(ActivityListModel::HousekeepingRole).toBool())
        return false;
    if (m_groups != 0 && (i.data(ActivityListModel::GroupRole).toInt() & m_groups) == 0)
        return false;
    return m_search.isEmpty() ||
           i.data(ActivityListModel::SearchRole).toString().contains(m_search, Qt::CaseInsensitive);
}

} // namespace lizard::models
