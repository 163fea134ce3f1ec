#include "ui/projecttableview.h"

#include "models/polledtablemodel.h"
#include "ui/tableselection.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>

namespace lizard::ui {

ProjectTableView::ProjectTableView(const QString& objectName, const QString& emptyText,
                                   QWidget* parent)
    : QWidget(parent), m_bar(new QToolBar(this)), m_view(new QTableView(this)),
      m_empty(new QLabel(emptyText, this))
{
    m_bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_view->setObjectName(objectName);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setWordWrap(false);
    m_empty->setStyleSheet(QStringLiteral("QLabel { color: palette(mid); }"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_bar);
    layout->addWidget(m_empty);
    layout->addWidget(m_view, 1);
}

void ProjectTableView::showModel(QAbstractItemModel* model,
                                 std::initializer_list<std::pair<int, int>> widths)
{
    m_view->setModel(model);
    updateActions();
    if (model == nullptr)
        return;
    for (const auto& [column, width] : widths)
        m_view->horizontalHeader()->resizeSection(column, width);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { updateActions(); });
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(model, signal, this, [this] { updateActions(); });
    connect(model, &QAbstractItemModel::dataChanged, this, [this] { updateActions(); });
    connect(model, &QAbstractItemModel::modelReset, this, [this] { updateActions(); });
    if (auto* polled = qobject_cast<models::PolledTableModel*>(model)) // the project was set
        connect(polled, &models::PolledTableModel::refreshed, this, [this] { updateActions(); });
}

QString ProjectTableView::selectedText(int role) const
{
    return selectedRowData(m_view, role).toString();
}

void ProjectTableView::selectRow(int row)
{
    if (row >= 0)
        m_view->selectRow(row);
}

void ProjectTableView::updateActions()
{
    m_empty->setVisible(m_view->model() == nullptr || m_view->model()->rowCount() == 0);
}

void ProjectTableView::setEmptyText(const QString& text)
{
    m_empty->setText(text);
}

} // namespace lizard::ui
