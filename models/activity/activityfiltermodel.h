#pragma once
// The activity list as the user filters it: by group (commands, code, files, lifecycle) and by
// a search text, case-insensitive, in commands, code, paths and the captured output.

#include <QSortFilterProxyModel>

namespace lizard::models {

class ActivityFilterModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit ActivityFilterModel(QObject* parent = nullptr);
    // A mask of ActivityListModel::Group values (0: every group).
    void setGroups(int mask);
    void setSearch(const QString& text);
    // The app's own background commands (hidden unless asked for).
    void setShowHousekeeping(bool show);

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override;

private:
    int m_groups = 0;
    QString m_search;
    bool m_showHousekeeping = false;
};

} // namespace lizard::models
