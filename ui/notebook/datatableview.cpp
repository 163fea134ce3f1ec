#include "ui/notebook/datatableview.h"

#include "notebook/tablemodel.h"

#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QKeyEvent>
#include <QScrollBar>
#include <QStyledItemDelegate>

namespace lizard::ui::notebook {

using lizard::notebook::TableModel;

namespace {

// The index column reads as labels, not data: bold on the header's colour.
class IndexDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        option->font.setBold(true);
        if (!(option->state & QStyle::State_Selected))
            option->backgroundBrush = option->palette.brush(QPalette::Window);
    }
};

} // namespace

DataTableView::DataTableView(QWidget* parent) : QTableView(parent)
{
    setItemDelegateForColumn(0, new IndexDelegate(this));
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setSelectionBehavior(QAbstractItemView::SelectItems);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setWordWrap(false);
    setAlternatingRowColors(true);
    setTextElideMode(Qt::ElideRight);
    setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    verticalHeader()->hide();
    verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    horizontalHeader()->setSectionsClickable(true);
    horizontalHeader()->setSortIndicatorShown(false);
    horizontalHeader()->setHighlightSections(false);
    // Sizing columns to their contents looks at the rows on screen only: never at rows that
    // would each have to be fetched from the kernel.
    horizontalHeader()->setResizeContentsPrecision(0);
    horizontalHeader()->setStretchLastSection(false);
    horizontalHeader()->setMinimumSectionSize(40);
    connect(horizontalHeader(), &QHeaderView::sectionClicked, this, &DataTableView::sortBySection);
    connect(horizontalHeader(), &QHeaderView::sectionResized, this, [this](int section) {
        if (!m_fitting)
            m_userSized.insert(section); // a width the user chose stays
    });
}

void DataTableView::setTableModel(TableModel* model)
{
    if (m_model)
        disconnect(m_model, nullptr, this, nullptr);
    m_model = model;
    m_userSized.clear();
    setModel(model);
    syncSortIndicator();
    // Widths from the header and the rows here; each page that arrives may widen a column (a
    // sort brings longer numbers), never narrow it, and never one the user sized.
    m_fitting = true;
    for (int c = 0; c < model->columnCount(); ++c)
        setColumnWidth(c, 0);
    m_fitting = false;
    fitColumns(0, std::min(model->blockRows(), model->rowCount()));
    connect(model, &TableModel::pageArrived, this,
            [this](qint64 start, int rows) { fitColumns(int(start), rows); });
}

void DataTableView::fitColumns(int start, int rows)
{
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics plain(font()), strong(bold);
    m_fitting = true;
    for (int c = 0; c < m_model->columnCount(); ++c) {
        if (m_userSized.contains(c))
            continue;
        int w = strong.horizontalAdvance(m_model->headerData(c, Qt::Horizontal).toString()) + 28;
        for (int r = start; r < start + rows && r < m_model->rowCount(); ++r) {
            if (m_model->isLoaded(r))
                w = std::max(w,
                             (c == 0 ? strong : plain).horizontalAdvance(m_model->text(r, c)) + 18);
        }
        w = std::clamp(w, 48, 360);
        if (w > columnWidth(c))
            setColumnWidth(c, w);
    }
    m_fitting = false;
}

void DataTableView::syncSortIndicator()
{
    if (!m_model || m_model->sortColumn() < 0) {
        horizontalHeader()->setSortIndicatorShown(false);
        return;
    }
    horizontalHeader()->setSortIndicatorShown(true);
    horizontalHeader()->setSortIndicator(m_model->sortColumn(), m_model->sortOrder());
}

void DataTableView::sortBySection(int section)
{
    if (!m_model)
        return;
    const Qt::SortOrder order =
        m_model->sortColumn() == section && m_model->sortOrder() == Qt::AscendingOrder
            ? Qt::DescendingOrder
            : Qt::AscendingOrder;
    if (!m_model->sortBy(section, order)) {
        emit sortRefused(m_model->unavailableReason().isEmpty()
                             ? tr("This table cannot be sorted")
                             : tr("Cannot sort: %1").arg(m_model->unavailableReason()));
        syncSortIndicator();
        return;
    }
    syncSortIndicator();
    // The press selected the column (QTableView's way); a click that sorts selects nothing.
    clearSelection();
    scrollToTop();
}

QString DataTableView::selectionTsv(int* missing) const
{
    if (!m_model || !selectionModel())
        return {};
    return m_model->toTsv(selectionModel()->selectedIndexes(), missing);
}

void DataTableView::copySelection()
{
    int missing = 0;
    const QString tsv = selectionTsv(&missing);
    if (tsv.isEmpty() && missing == 0)
        return;
    QApplication::clipboard()->setText(tsv);
    emit copied(int(tsv.count(u'\n')), missing);
}

void DataTableView::keyPressEvent(QKeyEvent* event)
{
    if (event == QKeySequence::Copy) {
        copySelection();
        event->accept();
        return;
    }
    QTableView::keyPressEvent(event);
}

int DataTableView::heightForRows(int rows) const
{
    return horizontalHeader()->sizeHint().height() + rows * verticalHeader()->defaultSectionSize() +
           horizontalScrollBar()->sizeHint().height() + 2 * frameWidth() + 2;
}

} // namespace lizard::ui::notebook
