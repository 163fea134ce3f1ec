#pragma once
// One side of the side-by-side diff as rows of a table: the line's number in its file and its
// text, tinted where it changed and striped where this side has no line. The rows are the
// diff's, shared with the other side, so both tables have the same rows and scroll together.
// A view asks only for the rows it shows: a file of 20,000 lines costs what 40 cost.

#include "models/changes/linediff.h"

#include <QAbstractTableModel>
#include <QColor>
#include <memory>

namespace lizard::ui::changes {

class DiffSideModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Side { Old, New };
    enum Column { NumberColumn, TextColumn, ColumnCount };

    explicit DiffSideModel(Side side, QObject* parent = nullptr);

    // `diff` null: the rows of `placeholder` alone (a side that has no file).
    void setDiff(std::shared_ptr<const models::changes::LineDiff> diff,
                 const QString& placeholder = {});
    void setColors(const QColor& changed, const QColor& blank, const QColor& number);

    // The side's text as the file has it (blank rows as empty lines), or the placeholder.
    QString text() const;
    // The text of the given rows, one line each, for the clipboard.
    QString textOf(const QList<int>& rows) const;
    // The widest line in characters once tabs are expanded: the text column's width.
    int widestLine() const { return m_widest; }
    // The number of digits of the last line number.
    int numberDigits() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;

private:
    int lineOf(int row) const; // this side's line index on `row`, -1: none
    QString lineText(int row) const;

    Side m_side;
    std::shared_ptr<const models::changes::LineDiff> m_diff;
    QString m_placeholder;
    int m_widest = 0;
    QColor m_changed, m_blank, m_number;
};

// Tabs as spaces to the next multiple of 8, as diff, less and terminals show them.
QString expandTabs(const QString& line);

} // namespace lizard::ui::changes
