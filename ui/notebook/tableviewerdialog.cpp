#include "ui/notebook/tableviewerdialog.h"

#include "ui/notebook/datatableview.h"
#include "ui/notebook/tableoutputview.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QVBoxLayout>

namespace lizard::ui::notebook {

using namespace lizard::notebook;

TableViewerDialog::TableViewerDialog(const QString& name, TableInfo info,
                                     TableModel::Fetcher fetcher, QWidget* parent)
    : QDialog(parent), m_name(name), m_model(new TableModel(std::move(info), this)),
      m_table(new DataTableView), m_shape(new QLabel), m_status(new QLabel)
{
    setObjectName(QStringLiteral("tableViewer"));
    m_model->setFetcher(std::move(fetcher));
    m_table->setTableModel(m_model);
    m_shape->setObjectName(QStringLiteral("tableShape"));
    m_shape->setText(TableOutputView::shapeOf(m_model->info()));
    m_status->setObjectName(QStringLiteral("tableStatus"));
    m_status->setStyleSheet(QStringLiteral("color: palette(placeholder-text);"));
    setWindowTitle(tr("%1 — %2").arg(name, m_shape->text()));

    auto* footer = new QHBoxLayout;
    footer->setSpacing(16);
    footer->addWidget(m_shape);
    footer->addWidget(m_status, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_table, 1);
    layout->addLayout(footer);

    connect(m_table, &DataTableView::copied, this,
            [this](int rows, int missing) { setNote(TableOutputView::copiedText(rows, missing)); });
    connect(m_table, &DataTableView::sortRefused, this, &TableViewerDialog::setNote);
    connect(m_model, &QAbstractItemModel::headerDataChanged, this,
            [this] { setNote(TableOutputView::sortNote(m_model)); });
    connect(m_model, &TableModel::unavailable, this, &TableViewerDialog::refreshStatus);
    connect(m_model, &TableModel::loadingChanged, this, &TableViewerDialog::refreshStatus);
    resize(std::min(1100, std::max(600, m_table->horizontalHeader()->length() + 40)), 640);
}

QString TableViewerDialog::shapeText() const
{
    return m_shape->text();
}

QString TableViewerDialog::statusText() const
{
    return m_status->text();
}

void TableViewerDialog::setNote(const QString& text)
{
    m_note = text;
    refreshStatus();
}

void TableViewerDialog::refreshStatus()
{
    const QString text = TableOutputView::statusOf(m_model, m_note);
    m_status->setText(text);
    m_status->setToolTip(text);
}

} // namespace lizard::ui::notebook
