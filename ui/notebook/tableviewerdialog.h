#pragma once
// A DataFrame or Series of the kernel in a window of its own (the variable explorer opens one
// for a variable): the same native table as a table output's "Open in viewer", over a model of
// its own whose rows come page by page from the kernel and sort there, never all at once, with
// a footer giving the shape and what is going on (loading, sorted, copied, kernel gone).

#include "notebook/tablemodel.h"

#include <QDialog>

class QLabel;

namespace lizard::ui::notebook {

class DataTableView;

class TableViewerDialog : public QDialog
{
    Q_OBJECT
public:
    // `name` titles the window; `fetcher` brings the rows after the first (TableModel).
    TableViewerDialog(const QString& name, lizard::notebook::TableInfo info,
                      lizard::notebook::TableModel::Fetcher fetcher, QWidget* parent = nullptr);

    QString name() const { return m_name; }
    DataTableView* table() const { return m_table; }
    lizard::notebook::TableModel* model() const { return m_model; }
    QString shapeText() const;
    QString statusText() const;

private:
    void setNote(const QString& text);
    void refreshStatus();

    QString m_name;
    QString m_note;
    lizard::notebook::TableModel* m_model;
    DataTableView* m_table;
    QLabel* m_shape;
    QLabel* m_status;
};

} // namespace lizard::ui::notebook
