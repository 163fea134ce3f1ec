#pragma once
// The frame both project tables (snapshots, volumes) share: a tool bar over a one-row-at-a-time
// table, and a hint in place of the table while it is empty. The subclass adds its actions to
// toolBar() and says in updateActions() which of them apply to the selected row.

#include "client/outcome.h"

#include <QWidget>
#include <initializer_list>
#include <utility>

class QAbstractItemModel;
class QLabel;
class QTableView;
class QToolBar;

namespace lizard::ui {

class ProjectTableView : public QWidget
{
    Q_OBJECT
public:
    QTableView* view() const { return m_view; }

signals:
    void errorOccurred(const lizard::client::ApiError& error);
    void message(const QString& text);

protected:
    ProjectTableView(const QString& objectName, const QString& emptyText, QWidget* parent);

    QToolBar* toolBar() const { return m_bar; }
    void setEmptyText(const QString& text);
    // Shows `model` (may be null) with the given column widths, and keeps the actions and the
    // empty hint in step with its rows and the selection.
    void showModel(QAbstractItemModel* model, std::initializer_list<std::pair<int, int>> widths);
    // `role` of the selected row, empty without a selection.
    QString selectedText(int role) const;
    void selectRow(int row);
    // Called on every change of rows, data or selection; the base shows the empty hint.
    virtual void updateActions();

private:
    QToolBar* m_bar;
    QTableView* m_view;
    QLabel* m_empty;
};

} // namespace lizard::ui
