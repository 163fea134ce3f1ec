#pragma once
// The outputs of one cell, one row each: a prompt column ("Out [n]:" beside an execute result)
// and the output's view. Follows the cell: outputs added, grown (streams), replaced, cleared.

#include "notebook/cell.h"

#include <QPointer>
#include <QWidget>

class QLabel;
class QVBoxLayout;

namespace lizard::ui::notebook {

class OutputView;

class OutputArea : public QWidget
{
    Q_OBJECT
public:
    explicit OutputArea(lizard::notebook::Cell* cell, QWidget* parent = nullptr);

    int count() const { return int(m_rows.size()); }
    OutputView* view(int index) const;
    QString promptText(int index) const;
    // Shows every output's pending change now (OutputView::flush).
    void flush();
    // The "Out [n]:" prompts in the scheme's colour (its CellWidget calls it when the scheme
    // changes, so that a cell follows the scheme through one connection).
    void applyColours();

    static int promptWidth(const QFontMetrics& metrics);

private:
    struct Row
    {
        QWidget* row;
        QLabel* prompt;
        OutputView* view;
    };
    void insertRow(int index);
    void updateRow(int index);
    void clearRows();
    void connectSource(OutputView* view, int index);
    QString promptFor(const lizard::notebook::Output& output) const;

    QPointer<lizard::notebook::Cell> m_cell;
    QVBoxLayout* m_layout;
    QList<Row> m_rows;
};

} // namespace lizard::ui::notebook
