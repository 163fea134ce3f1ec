#pragma once
// A displayed DataFrame as a table model: the index as column 0, then the frame's columns. Rows
// come page by page (blocks of blockRows()) from the kernel as the view asks for them; a row whose
// block is on its way shows "…". Only the most recent kMaxBlocks blocks are kept, so scrolling
// through a million rows never brings them all into the app. Sorting (sort()) happens in pandas
// in the kernel: the cache is dropped and pages come again in the new order. When the kernel is
// gone (an error from the fetcher) the model keeps the rows it has and says more are not available.
// No widgets: ui/notebook/tableoutputview.* shows it.

#include "notebook/coderunner.h"
#include "notebook/tabledata.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QList>

namespace lizard::notebook {

class TableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    static constexpr int kBlockRows = 100;
    static constexpr int kMaxBlocks = 200;  // 20,000 rows at most in memory
    static constexpr int kMaxWanted = 8;    // blocks asked for while one is on its way (newest win)
    static constexpr int kMaxCells = 20000; // the runner's cap on the values of one page
    // Fetches a page; answers later through done (never from within the call), or not at all
    // once ctx is gone. CodeRunner::tableRows has this shape.
    using Fetcher =
        std::function<void(const TableRowsRequest&, QObject* ctx, CodeRunner::TableRowsDone done)>;

    // Pages from `runner` while it lives; once it is gone each ask says the connection is gone.
    static Fetcher fetcherOf(CodeRunner* runner);

    explicit TableModel(TableInfo info, QObject* parent = nullptr);

    // Without a fetcher no rows beyond the first are asked for (they show "…" until one is set).
    void setFetcher(Fetcher fetcher);
    const TableInfo& info() const { return m_info; }
    // Rows per block: kBlockRows, fewer for a frame wider than kMaxCells / kBlockRows columns.
    int blockRows() const { return m_blockRows; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    // Column 0 sorts by the index. Refused (false from sortBy) once the kernel is gone.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    bool sortBy(int column, Qt::SortOrder order);
    int sortColumn() const { return m_sortColumn; }
    Qt::SortOrder sortOrder() const { return m_order; }

    // The text of a cell, empty when its row is not here; isLoaded says which.
    QString text(int row, int column) const;
    bool isLoaded(int row) const;
    bool isLoading() const { return m_inFlight; }
    int cachedBlocks() const { return int(m_blocks.size()); }
    // Non-empty once no more rows can come (the kernel is gone): why.
    QString unavailableReason() const { return m_unavailable; }
    // The selected cells as tab-separated lines (rows not here are left out; *missing counts them).
    QString toTsv(const QModelIndexList& indexes, int* missing = nullptr) const;

signals:
    void unavailable(const QString& reason);
    void loadingChanged(bool loading);
    void pageArrived(qint64 start, int rows);

private:
    struct Block
    {
        QStringList index;
        QList<QStringList> columns;
        quint64 used = 0;
    };
    void store(const TablePage& page);
    const Block* block(int row) const;
    void want(qint64 block) const;
    void dispatch();
    void onPage(quint64 generation, qint64 block, const client::TableRows& rows,
                const QString& error);
    void setUnavailable(const QString& reason);

    TableInfo m_info;
    int m_blockRows;
    Fetcher m_fetcher;
    mutable QHash<qint64, Block> m_blocks;
    mutable QList<qint64> m_wanted; // newest last
    mutable quint64 m_clock = 0;
    mutable bool m_dispatchQueued = false;
    bool m_inFlight = false;
    quint64 m_generation = 0; // a new sort makes answers of the old order stale
    int m_sortColumn = -1;    // -1: the frame's own order
    Qt::SortOrder m_order = Qt::AscendingOrder;
    QString m_unavailable;
    // While the first page of a new order is on its way: the rows and order before it, shown
    // again if the kernel turns out to be gone.
    struct Previous
    {
        QHash<qint64, Block> blocks;
        int column = -1;
        Qt::SortOrder order = Qt::AscendingOrder;
    };
    std::optional<Previous> m_previous;
};

} // namespace lizard::notebook
