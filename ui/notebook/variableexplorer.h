#pragma once
// The variable explorer beside the cells (Spyder's, JupyterLab's): the user's variables in the
// notebook's kernel with type, shape or length, size and a one-line preview, sortable by any
// column and filtered by name or type. It asks the kernel once after each run (silently: the
// execution count does not move) and only while shown; a hidden panel catches up when shown.
// Like help, a request would queue behind a running cell, so none is sent while the notebook
// runs. Double-clicking a row (or "Open" in its context menu) opens a pandas DataFrame or
// Series in the native table viewer (TableViewerDialog: rows paged and sorted in the kernel) and
// shows any other variable's full repr below the table.

#include "notebook/coderunner.h"
#include "notebook/runqueue.h"
#include "ui/notebook/tableviewerdialog.h" // complete: a signal carries it

#include <QPointer>
#include <QWidget>

class QLabel;
class QLineEdit;
class QModelIndex;
class QPushButton;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTextBrowser;
class QTimer;
class QTreeView;

namespace lizard::ui::notebook {

class VariableExplorer : public QWidget
{
    Q_OBJECT
public:
    enum Column { Name, Type, Shape, Size, Value, ColumnCount };

    VariableExplorer(lizard::notebook::CodeRunner* runner, lizard::notebook::RunQueue* queue,
                     QWidget* parent = nullptr);

    // The context's language: only Python kernels have variables to list.
    void setLanguage(const QString& language);
    // A fork's copy: before its first run the kernel has not started, so the saved variables
    // have not loaded yet; the panel says so.
    void setBranch(bool branch);

    QString statusText() const; // "Kernel not running…", "No variables yet", "3 variables"
    QString detailText() const; // the full repr shown after a double-click (plain text)
    int rowCount() const;       // rows shown (after the filter), in the view's order
    QString text(int row, int column) const;
    int requestCount() const { return m_requests; }
    QTreeView* view() const { return m_view; }
    QLineEdit* filterEdit() const { return m_filter; }
    // Types the table viewer shows (the listing's type names).
    static bool opensAsTable(const QString& type);

public slots:
    void refresh(); // soon (several reasons at once give one request), or when shown / idle

signals:
    void openVariable(const QString& name, const QString& type);
    void viewerOpened(lizard::ui::notebook::TableViewerDialog* viewer);
    void refreshed(); // a listing (or its failure) arrived and is shown

protected:
    void showEvent(QShowEvent* event) override;

private:
    void ask();
    void display(const lizard::notebook::VariableList& list);
    void open(const QModelIndex& index);
    void showRepr(const QString& name);
    void openTable(const QString& name);
    void setStatus(const QString& text);

    QPointer<lizard::notebook::CodeRunner> m_runner;
    QPointer<lizard::notebook::RunQueue> m_queue;
    QLabel* m_status;
    QLineEdit* m_filter;
    QPushButton* m_refresh;
    QTreeView* m_view;
    QStandardItemModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTextBrowser* m_detail;
    QTimer* m_soon;
    QString m_language = QStringLiteral("python");
    bool m_branch = false;
    bool m_stale = true; // something may have changed since the last listing
    quint64 m_generation = 0;
    int m_requests = 0;
};

} // namespace lizard::ui::notebook
