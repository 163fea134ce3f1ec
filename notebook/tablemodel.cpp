#include "notebook/tablemodel.h"

#include <QPointer>
#include <QSet>
#include <QTimer>
#include <algorithm>
#include <set>

namespace lizard::notebook {

namespace {
const QString kLoading = QStringLiteral("…");
}

TableModel::TableModel(TableInfo info, QObject* parent)
    : QAbstractTableModel(parent), m_info(std::move(info)),
      // The runner cuts pages of wide frames to kMaxCells values: blocks are what a page holds.
      m_blockRows(std::clamp(kMaxCells / std::max(1, int(m_info.columns.size())), 1, kBlockRows))
{
    store(m_info.first);
    m_info.first = {}; // its rows live in the blocks now
}

TableModel::Fetcher TableModel::fetcherOf(CodeRunner* runner)
{
    return [runner = QPointer<CodeRunner>(runner)](const TableRowsRequest& req, QObject* ctx,
                                                   CodeRunner::TableRowsDone done) {
        if (runner)
            return runner->tableRows(req, ctx, std::move(done));
        QMetaObject::invokeMethod(
            ctx,
            [done] {
                done(client::TableRows{},
                     QStringLiteral("the notebook's kernel connection is gone"));
            },
            Qt::QueuedConnection);
    };
}

void TableModel::setFetcher(Fetcher fetcher)
{
    m_fetcher = std::move(fetcher);
    if (!m_wanted.isEmpty())
        dispatch();
}

int TableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0
                            : int(std::min<qint64>(m_info.rows, std::numeric_limits<int>::max()));
}

int TableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_info.columns.size()) + 1;
}

void TableModel::store(const TablePage& page)
{
    // Pages start at block boundaries (we ask so); the output's first rows may span blocks.
    for (int off = 0; off < page.rowCount(); off += m_blockRows) {
        const qint64 first = page.start + off;
        if (first % m_blockRows != 0)
            return;
        const int n = std::min(m_blockRows, page.rowCount() - off);
        if (n < m_blockRows && first + n < m_info.rows)
            return; // a partial block that is not the last: ask again when needed
        Block b;
        b.index = page.index.mid(off, n);
        for (const QStringList& col : page.columns)
            b.columns.append(col.mid(off, n));
        b.used = ++m_clock;
        m_blocks.insert(first / m_blockRows, b);
    }
    while (m_blocks.size() > kMaxBlocks) {
        auto oldest =
            std::min_element(m_blocks.begin(), m_blocks.end(),
                             [](const Block& a, const Block& b) { return a.used < b.used; });
        m_blocks.erase(oldest);
    }
}

const TableModel::Block* TableModel::block(int row) const
{
    const auto it = m_blocks.find(row / m_blockRows);
    return it == m_blocks.end() ? nullptr : &it.value();
}

bool TableModel::isLoaded(int row) const
{
    return block(row) != nullptr;
}

QString TableModel::text(int row, int column) const
{
    const Block* b = block(row);
    if (!b || column < 0 || column > b->columns.size())
        return {};
    const int r = row % m_blockRows;
    return column == 0 ? b->index.value(r) : b->columns[column - 1].value(r);
}

QVariant TableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    const TableColumn& col =
        index.column() == 0 ? m_info.index : m_info.columns[index.column() - 1];
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue((col.isNumeric() ? Qt::AlignRight : Qt::AlignLeft) |
                                   Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    const auto it = m_blocks.find(index.row() / m_blockRows);
    if (it == m_blocks.end()) {
        if (!m_unavailable.isEmpty())
            return role == Qt::ToolTipRole ? QVariant(m_unavailable) : QVariant(QString());
        want(index.row() / m_blockRows);
        return kLoading;
    }
    it->used = ++m_clock;
    const int r = index.row() % m_blockRows;
    return index.column() == 0 ? it->index.value(r) : it->columns[index.column() - 1].value(r);
}

QVariant TableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Vertical)
        return role == Qt::DisplayRole ? QVariant(section + 1) : QVariant();
    if (section < 0 || section > m_info.columns.size())
        return {};
    const TableColumn& col = section == 0 ? m_info.index : m_info.columns[section - 1];
    if (role == Qt::DisplayRole)
        return col.name;
    if (role == Qt::ToolTipRole)
        return (section == 0 ? QStringLiteral("index") : QStringLiteral("column")) +
               (col.name.isEmpty() ? QString() : QStringLiteral(" ") + col.name) +
               (col.dtype.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(col.dtype));
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue((col.isNumeric() ? Qt::AlignRight : Qt::AlignLeft) |
                                   Qt::AlignVCenter);
    return {};
}

void TableModel::want(qint64 block) const
{
    if (m_wanted.contains(block))
        return;
    m_wanted.append(block);
    if (m_wanted.size() > kMaxWanted) // scrolled on: what left the screen is not needed now
        m_wanted.removeFirst();
    if (!m_dispatchQueued && m_fetcher) {
        m_dispatchQueued = true;
        QTimer::singleShot(0, const_cast<TableModel*>(this), &TableModel::dispatch);
    }
}

void TableModel::dispatch()
{
    m_dispatchQueued = false;
    if (m_inFlight || !m_fetcher || !m_unavailable.isEmpty())
        return;
    while (!m_wanted.isEmpty() && m_blocks.contains(m_wanted.last()))
        m_wanted.removeLast();
    if (m_wanted.isEmpty())
        return;
    const qint64 block = m_wanted.takeLast();
    TableRowsRequest req;
    req.context = m_info.context;
    req.handle = m_info.handle;
    req.start = block * m_blockRows;
    req.count = m_blockRows;
    if (m_sortColumn >= 0) {
        req.column = m_sortColumn - 1; // column 0 is the index: -1 for the runner
        req.ascending = m_order == Qt::AscendingOrder;
    }
    m_inFlight = true;
    emit loadingChanged(true);
    const quint64 generation = m_generation;
    m_fetcher(req, this, [this, generation, block](client::TableRows rows, QString error) {
        onPage(generation, block, rows, error);
    });
}

void TableModel::onPage(quint64 generation, qint64 block, const client::TableRows& rows,
                        const QString& error)
{
    m_inFlight = false;
    if (generation == m_generation) {
        QString why = error;
        std::optional<TablePage> page;
        if (why.isEmpty())
            page = parseTablePage(rows, m_info, &why);
        if (!page) {
            if (m_previous) { // the new order never came: back to the rows we had
                m_blocks = std::move(m_previous->blocks);
                m_sortColumn = m_previous->column;
                m_order = m_previous->order;
                m_previous.reset();
                emit headerDataChanged(Qt::Horizontal, 0, columnCount() - 1);
            }
            setUnavailable(why);
        } else {
            m_previous.reset();
            store(*page);
            const qint64 first = block * m_blockRows;
            const int last = int(std::min<qint64>(first + m_blockRows, m_info.rows)) - 1;
            if (last >= first)
                emit dataChanged(index(int(first), 0), index(last, columnCount() - 1));
            emit pageArrived(page->start, page->rowCount());
        }
    }
    emit loadingChanged(false);
    dispatch();
}

void TableModel::setUnavailable(const QString& reason)
{
    m_unavailable = reason.isEmpty() ? QStringLiteral("the kernel did not answer") : reason;
    m_wanted.clear();
    if (m_info.rows > 0) // rows that showed "…" show nothing now
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
    emit unavailable(m_unavailable);
}

void TableModel::sort(int column, Qt::SortOrder order)
{
    sortBy(column, order);
}

bool TableModel::sortBy(int column, Qt::SortOrder order)
{
    if (column < 0 || column >= columnCount() || !m_unavailable.isEmpty() ||
        m_info.handle.isEmpty())
        return false;
    if (column == m_sortColumn && order == m_order)
        return true;
    if (!m_previous) // sorting again before the last sort's first page: keep the older rows
        m_previous = Previous{m_blocks, m_sortColumn, m_order};
    m_sortColumn = column;
    m_order = order;
    ++m_generation;
    m_blocks.clear();
    m_wanted.clear();
    if (m_info.rows > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
    emit headerDataChanged(Qt::Horizontal, 0, columnCount() - 1);
    return true;
}

QString TableModel::toTsv(const QModelIndexList& indexes, int* missing) const
{
    std::set<int> rows, cols;
    for (const QModelIndex& i : indexes) {
        if (i.isValid() && i.model() == this) {
            rows.insert(i.row());
            cols.insert(i.column());
        }
    }
    QSet<quint64> chosen;
    for (const QModelIndex& i : indexes)
        chosen.insert(quint64(i.row()) << 32 | quint64(i.column()));
    QStringList lines;
    int skipped = 0;
    for (int r : rows) {
        if (!isLoaded(r)) {
            ++skipped;
            continue;
        }
        QStringList fields;
        for (int c : cols) {
            // Tabs and newlines inside a value would break the grid: spaces instead.
            QString t = chosen.contains(quint64(r) << 32 | quint64(c)) ? text(r, c) : QString();
            t.replace(u'\t', u' ').replace(u'\n', u' ');
            fields.append(t);
        }
        lines.append(fields.join(u'\t'));
    }
    if (missing)
        *missing = skipped;
    return lines.isEmpty() ? QString() : lines.join(u'\n') + u'\n';
}

} // namespace lizard::notebook
