#include "ui/changes/diffsidemodel.h"

#include <QFont>

namespace lizard::ui::changes {

using models::changes::DiffRow;

namespace {

constexpr int kTabStop = 8;

// A line's width in characters with its tabs expanded, without building the expanded text.
int expandedWidth(const QString& line)
{
    int column = 0;
    for (const QChar c : line)
        column = c == QLatin1Char('\t') ? (column / kTabStop + 1) * kTabStop : column + 1;
    return column;
}

} // namespace

QString expandTabs(const QString& line)
{
    if (!line.contains(QLatin1Char('\t')))
        return line;
    QString out;
    out.reserve(line.size() + kTabStop);
    for (const QChar c : line) {
        if (c == QLatin1Char('\t'))
            out += QString(kTabStop - out.size() % kTabStop, QLatin1Char(' '));
        else
            out += c;
    }
    return out;
}

DiffSideModel::DiffSideModel(Side side, QObject* parent) : QAbstractTableModel(parent), m_side(side)
{
}

void DiffSideModel::setDiff(std::shared_ptr<const models::changes::LineDiff> diff,
                            const QString& placeholder)
{
    beginResetModel();
    m_diff = std::move(diff);
    m_placeholder = m_diff ? QString() : placeholder;
    m_widest = int(m_placeholder.size());
    if (m_diff) {
        for (const QString& line : m_side == Old ? m_diff->oldLines : m_diff->newLines)
            m_widest = std::max(m_widest, expandedWidth(line));
    }
    endResetModel();
}

void DiffSideModel::setColors(const QColor& changed, const QColor& blank, const QColor& number)
{
    m_changed = changed;
    m_blank = blank;
    m_number = number;
    if (rowCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1),
                         {Qt::BackgroundRole, Qt::ForegroundRole});
}

int DiffSideModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid())
        return 0;
    if (m_diff)
        return int(m_diff->rows.size());
    return m_placeholder.isEmpty() ? 0 : 1;
}

int DiffSideModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

int DiffSideModel::lineOf(int row) const
{
    if (!m_diff || row < 0 || row >= m_diff->rows.size())
        return -1;
    const DiffRow& r = m_diff->rows[row];
    return m_side == Old ? r.left : r.right;
}

QString DiffSideModel::lineText(int row) const
{
    if (!m_diff)
        return row == 0 ? m_placeholder : QString();
    const int line = lineOf(row);
    if (line < 0)
        return {};
    return m_side == Old ? m_diff->oldLines[line] : m_diff->newLines[line];
}

QVariant DiffSideModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    const int row = index.row();
    const int line = lineOf(row);
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == NumberColumn)
            return line >= 0 ? QVariant(QString::number(line + 1)) : QVariant();
        return expandTabs(lineText(row));
    case Qt::BackgroundRole:
        if (!m_diff)
            return {};
        if (line < 0)
            return m_blank;
        return m_diff->rows[row].kind == DiffRow::Same ? QVariant() : QVariant(m_changed);
    case Qt::ForegroundRole:
        return index.column() == NumberColumn ? QVariant(m_number) : QVariant();
    case Qt::TextAlignmentRole:
        return index.column() == NumberColumn ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter))
                                              : QVariant(int(Qt::AlignLeft | Qt::AlignVCenter));
    case Qt::FontRole:
        if (!m_diff && index.column() == TextColumn) {
            QFont italic;
            italic.setItalic(true);
            return italic;
        }
        return {};
    default:
        return {};
    }
}

QString DiffSideModel::text() const
{
    if (!m_diff)
        return m_placeholder;
    QStringList lines;
    lines.reserve(m_diff->rows.size());
    for (int row = 0; row < m_diff->rows.size(); ++row)
        lines << lineText(row);
    return lines.join(QLatin1Char('\n'));
}

QString DiffSideModel::textOf(const QList<int>& rows) const
{
    QStringList lines;
    for (const int row : rows) {
        if (lineOf(row) >= 0 || !m_diff)
            lines << lineText(row);
    }
    return lines.join(QLatin1Char('\n'));
}

int DiffSideModel::numberDigits() const
{
    if (!m_diff)
        return 1;
    const auto count = m_side == Old ? m_diff->oldLines.size() : m_diff->newLines.size();
    return int(QString::number(count).size());
}

} // namespace lizard::ui::changes
