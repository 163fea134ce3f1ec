#include "ui/files/transfersview.h"

#include "models/files/transferjobsmodel.h"

#include <QApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

namespace lizard::ui::files {

using models::files::TransferJobsModel;

namespace {

// Paints the progress column as a progress bar (busy-looking when the size is not known).
class ProgressDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override
    {
        QStyleOptionProgressBar bar;
        bar.rect = option.rect.adjusted(2, 3, -2, -3);
        bar.minimum = 0;
        bar.maximum = 100;
        const int percent = index.data(TransferJobsModel::ProgressRole).toInt();
        bar.progress = qMax(percent, 0);
        bar.text = percent < 0 ? QString() : QStringLiteral("%1%").arg(percent);
        bar.textVisible = true;
        bar.state = option.state | QStyle::State_Horizontal;
        QApplication::style()->drawControl(QStyle::CE_ProgressBar, &bar, painter);
    }
};

} // namespace

TransfersView::TransfersView(TransferJobsModel* model, QWidget* parent)
    : QWidget(parent), m_model(model), m_table(new QTableView),
      m_cancel(new QPushButton(tr("Cancel"))), m_clear(new QPushButton(tr("Clear finished")))
{
    setObjectName(QStringLiteral("transfersView"));
    m_table->setModel(model);
    m_table->setItemDelegateForColumn(TransferJobsModel::ProgressColumn,
                                      new ProgressDelegate(m_table));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(TransferJobsModel::TitleColumn,
                                                      QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(TransferJobsModel::ProgressColumn,
                                                      QHeaderView::Fixed);
    m_table->horizontalHeader()->resizeSection(TransferJobsModel::ProgressColumn, 140);
    m_table->horizontalHeader()->setSectionResizeMode(TransferJobsModel::StateColumn,
                                                      QHeaderView::Stretch);
    m_table->setMaximumHeight(110);
    m_cancel->setObjectName(QStringLiteral("cancelTransfer"));
    auto* buttons = new QVBoxLayout;
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_clear);
    buttons->addStretch();
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);

    connect(m_cancel, &QPushButton::clicked, this, &TransfersView::cancelSelected);
    connect(m_clear, &QPushButton::clicked, model, &TransferJobsModel::clearFinished);
    connect(model, &QAbstractItemModel::rowsInserted, this, &TransfersView::updateState);
    connect(model, &QAbstractItemModel::rowsRemoved, this, &TransfersView::updateState);
    connect(model, &QAbstractItemModel::dataChanged, this, &TransfersView::updateState);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &TransfersView::updateState);
    updateState();
}

void TransfersView::cancelSelected()
{
    const QModelIndex current = m_table->currentIndex();
    if (current.isValid())
        return m_model->cancel(current.row());
    // Nothing selected: the running one, if there is exactly one.
    int running = -1;
    for (int row = 0; row < m_model->rowCount(); ++row) {
        if (!m_model->index(row, 0).data(TransferJobsModel::FinishedRole).toBool()) {
            if (running >= 0)
                return;
            running = row;
        }
    }
    if (running >= 0)
        m_model->cancel(running);
}

void TransfersView::updateState()
{
    setVisible(m_model->rowCount() > 0);
    const QModelIndex current = m_table->currentIndex();
    m_cancel->setEnabled(current.isValid() ? !current.data(TransferJobsModel::FinishedRole).toBool()
                                           : m_model->runningCount() == 1);
    m_clear->setEnabled(m_model->rowCount() > m_model->runningCount());
}

} // namespace lizard::ui::files
