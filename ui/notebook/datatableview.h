#pragma once
// The table of a DataFrame (notebook/tablemodel.h): the index column in bold, numbers
// right-aligned, columns resizable, a header click sorts in the kernel (click again: the other
// way), Ctrl+C copies the selection as tab-separated text. Rows are fixed-height so a million of
// them scroll without measuring any.

#include <QSet>
#include <QTableView>

namespace lizard::notebook {
class TableModel;
}

namespace lizard::ui::notebook {

class DataTableView : public QTableView
{
    Q_OBJECT
public:
    explicit DataTableView(QWidget* parent = nullptr);

    void setTableModel(lizard::notebook::TableModel* model);
    lizard::notebook::TableModel* tableModel() const { return m_model; }
    // What Ctrl+C puts on the clipboard (also used by it).
    QString selectionTsv(int* missing = nullptr) const;
    void copySelection();
    // Header click: sorts by section, the other way when it is already sorted by it.
    void sortBySection(int section);
    // The height that shows `rows` rows with the header and a horizontal scroll bar.
    int heightForRows(int rows) const;

signals:
    // After Ctrl+C: rows copied, and rows of the selection that were not here (left out).
    void copied(int rows, int missing);
    void sortRefused(const QString& why);

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    void syncSortIndicator();
    void fitColumns(int start, int rows);

    lizard::notebook::TableModel* m_model = nullptr;
    QSet<int> m_userSized;
    bool m_fitting = false;
};

} // namespace lizard::ui::notebook
