#pragma once
// A DataFrame or Series output shown as data (application/vnd.lizard.table+json): a native table
// over notebook::TableModel, whose rows come page by page from the kernel that showed it, with a
// footer giving the shape and what is going on (loading, sorted, copied, kernel gone) and an
// "Open in viewer" button for a larger window on the same rows. The runner that fetches rows is
// the notebook's (found through the cell list this view sits in).

#include "notebook/tabledata.h"
#include "ui/notebook/outputview.h"

#include <QPointer>

class QLabel;
class QToolButton;

namespace lizard::notebook {
class CodeRunner;
class TableModel;
} // namespace lizard::notebook

namespace lizard::ui::notebook {

class DataTableView;

class TableOutputView : public OutputView
{
    Q_OBJECT
public:
    TableOutputView(const lizard::notebook::RichOutput& output, lizard::notebook::TableInfo info,
                    QWidget* parent = nullptr);
    ~TableOutputView() override;

    // The table to show for output, nullopt when it has none or it is malformed (*error says why).
    static std::optional<lizard::notebook::TableInfo>
    tableOf(const lizard::notebook::RichOutput& output, QString* error = nullptr);

    bool setOutput(const lizard::notebook::Output& output) override;
    QString plainText() const override;

    DataTableView* table() const { return m_table; }
    lizard::notebook::TableModel* model() const { return m_model; }
    QString shapeText() const;
    QString statusText() const;
    QToolButton* openButton() const { return m_open; }
    // Opens (or raises) the larger viewer on the same rows.
    QWidget* openViewer();

    // The footer's texts, shared with TableViewerDialog: the shape ("1,000 rows × 3 columns"),
    // the status (first to last: the kernel is gone, rows are loading, the note), the note after
    // a sort and after Ctrl+C.
    static QString shapeOf(const lizard::notebook::TableInfo& info);
    static QString statusOf(const lizard::notebook::TableModel* model, const QString& note);
    static QString sortNote(const lizard::notebook::TableModel* model);
    static QString copiedText(int rows, int missing);

signals:
    void statusChanged(const QString& text);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void setTable(lizard::notebook::TableInfo info);
    void attachRunner();
    void setNote(const QString& text);
    void refreshStatus();
    void connectTable(DataTableView* table);

    QString m_plain;
    QString m_note;
    lizard::notebook::TableModel* m_model = nullptr;
    DataTableView* m_table;
    QLabel* m_shape;
    QLabel* m_status;
    QToolButton* m_open;
    QPointer<QWidget> m_viewer;
    QPointer<lizard::notebook::CodeRunner> m_runner;
};

} // namespace lizard::ui::notebook
