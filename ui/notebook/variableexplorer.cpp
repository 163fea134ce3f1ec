#include "ui/notebook/variableexplorer.h"

#include "notebook/tablemodel.h"
#include "ui/theme/icontheme.h"

#include <QAction>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTextBrowser>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

namespace lizard::ui::notebook {

using namespace lizard::notebook;

namespace {

constexpr int kSortRole = Qt::UserRole + 1;

QStandardItem* cell(const QString& text, const QVariant& sortKey = {})
{
    auto* item = new QStandardItem(text);
    item->setEditable(false);
    item->setData(sortKey.isValid() ? sortKey : QVariant(text.toLower()), kSortRole);
    return item;
}

// "len 5" and "3 × 4" sort by their first number, then as text.
QVariant shapeKey(const QString& shape)
{
    const QString digits =
        shape.section(QLatin1Char(' '), shape.startsWith(QLatin1String("len ")) ? 1 : 0, -1);
    return QStringLiteral("%1 %2")
        .arg(digits.section(QLatin1Char(' '), 0, 0).toLongLong(), 20, 10, QLatin1Char('0'))
        .arg(shape);
}

} // namespace

VariableExplorer::VariableExplorer(CodeRunner* runner, RunQueue* queue, QWidget* parent)
    : QWidget(parent), m_runner(runner), m_queue(queue), m_status(new QLabel),
      m_filter(new QLineEdit), m_refresh(new QPushButton(QStringLiteral("Refresh"))),
      m_view(new QTreeView), m_model(new QStandardItemModel(0, ColumnCount, this)),
      m_proxy(new QSortFilterProxyModel(this)), m_detail(new QTextBrowser), m_soon(new QTimer(this))
{
    setObjectName(QStringLiteral("variableExplorer"));
    auto* title = new QLabel(QStringLiteral("<b>Variables</b>"));
    m_status->setObjectName(QStringLiteral("variableExplorerStatus"));
    m_status->setWordWrap(true);
    m_filter->setObjectName(QStringLiteral("variableFilter"));
    m_filter->setPlaceholderText(QStringLiteral("Filter by name or type"));
    m_filter->setClearButtonEnabled(true);
    m_refresh->setObjectName(QStringLiteral("refreshVariables"));
    m_refresh->setToolTip(QStringLiteral("Ask the kernel for its variables again"));

    m_model->setHorizontalHeaderLabels({QStringLiteral("Name"), QStringLiteral("Type"),
                                        QStringLiteral("Shape"), QStringLiteral("Size"),
                                        QStringLiteral("Value")});
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(kSortRole);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(-1); // any column: a name or a type ("ndarray", "DataFrame")
    m_view->setObjectName(QStringLiteral("variableTable"));
    m_view->setModel(m_proxy);
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(Name, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->header()->setStretchLastSection(true);
    m_view->setToolTip(QStringLiteral(
        "Double-click a variable to see all of it (a DataFrame or Series opens as a table)"));
    auto* openAction = new QAction(IconTheme::icon(QStringLiteral("document-open")),
                                   QStringLiteral("Open"), m_view);
    openAction->setObjectName(QStringLiteral("openVariable"));
    connect(openAction, &QAction::triggered, this, [this] { open(m_view->currentIndex()); });
    m_view->addAction(openAction);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_detail->setObjectName(QStringLiteral("variableDetail"));
    m_detail->setLineWrapMode(QTextEdit::WidgetWidth);
    m_detail->hide();

    auto* tools = new QHBoxLayout;
    tools->addWidget(m_filter, 1);
    tools->addWidget(m_refresh);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_view);
    split->addWidget(m_detail);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setCollapsible(0, false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(title);
    layout->addLayout(tools);
    layout->addWidget(m_status);
    layout->addWidget(split, 1);

    m_soon->setSingleShot(true);
    m_soon->setInterval(30); // a run's end and the kernel going idle arrive together: one request
    connect(m_soon, &QTimer::timeout, this, &VariableExplorer::ask);
    connect(m_filter, &QLineEdit::textChanged, m_proxy,
            &QSortFilterProxyModel::setFilterFixedString);
    connect(m_refresh, &QPushButton::clicked, this, &VariableExplorer::refresh);
    connect(m_view, &QTreeView::doubleClicked, this, &VariableExplorer::open);
    if (queue) {
        connect(queue, &RunQueue::busyChanged, this, [this](bool busy) {
            if (!busy)
                refresh();
        });
    }
    setStatus(QStringLiteral("Kernel not running: run a cell to start it."));
}

void VariableExplorer::setLanguage(const QString& language)
{
    if (language == m_language)
        return;
    m_language = language;
    refresh();
}

void VariableExplorer::setBranch(bool branch)
{
    m_branch = branch;
}

QString VariableExplorer::statusText() const
{
    return m_status->text();
}

QString VariableExplorer::detailText() const
{
    return m_detail->isVisible() ? m_detail->toPlainText() : QString();
}

int VariableExplorer::rowCount() const
{
    return m_proxy->rowCount();
}

QString VariableExplorer::text(int row, int column) const
{
    return m_proxy->index(row, column).data().toString();
}

void VariableExplorer::refresh()
{
    m_stale = true;
    ++m_generation; // an answer on its way describes an older state
    if (isVisible())
        m_soon->start();
}

void VariableExplorer::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_stale)
        m_soon->start(); // while hidden nothing was asked: catch up
}

void VariableExplorer::ask()
{
    if (!isVisible() || !m_runner)
        return;
    if (m_queue && m_queue->isBusy())
        return; // it would wait behind the run; the run's end asks again
    if (m_language != QLatin1String("python")) {
        m_model->removeRows(0, m_model->rowCount());
        setStatus(QStringLiteral("Only Python contexts keep variables; this one runs %1.")
                      .arg(m_language));
        m_stale = false;
        return;
    }
    m_stale = false;
    const quint64 generation = ++m_generation;
    ++m_requests;
    m_refresh->setEnabled(false);
    m_runner->listVariables({}, this, [this, generation](VariableList list) {
        m_refresh->setEnabled(true);
        if (generation != m_generation)
            return;
        display(list);
        emit refreshed();
    });
}

void VariableExplorer::display(const VariableList& list)
{
    if (!list.error.isEmpty()) {
        setStatus(QStringLiteral("Could not list the variables: %1").arg(list.error));
        return; // the last listing stays: better than an empty table
    }
    const QModelIndex current = m_view->currentIndex();
    const QString selected =
        current.isValid() ? current.siblingAtColumn(Name).data().toString() : QString();
    m_model->removeRows(0, m_model->rowCount());
    for (const Variable& v : list.variables) {
        const QString size = v.size < 0 ? QString() : QLocale::c().formattedDataSize(v.size, 1);
        QList<QStandardItem*> row{cell(v.name), cell(v.type), cell(v.shape, shapeKey(v.shape)),
                                  cell(size, v.size), cell(v.preview)};
        row[Name]->setToolTip(QStringLiteral("%1: %2").arg(v.name, v.type));
        row[Value]->setToolTip(v.preview);
        row[Value]->setFont(QFont(QStringLiteral("monospace")));
        row[Size]->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_model->appendRow(row);
    }
    for (int c = Name; c < Value; ++c)
        m_view->resizeColumnToContents(c);
    if (!selected.isEmpty()) {
        const QModelIndexList again =
            m_proxy->match(m_proxy->index(0, Name), Qt::DisplayRole, selected, 1, Qt::MatchExactly);
        if (!again.isEmpty())
            m_view->setCurrentIndex(again.first());
    }
    if (!list.kernel)
        setStatus(m_branch ? QStringLiteral(
                                 "Kernel not running: the variables saved at the fork load with "
                                 "the first run.")
                           : QStringLiteral("Kernel not running: run a cell to start it."));
    else if (list.variables.isEmpty())
        setStatus(QStringLiteral("No variables yet."));
    else
        setStatus(list.variables.size() == 1
                      ? QStringLiteral("1 variable")
                      : QStringLiteral("%1 variables").arg(list.variables.size()));
}

void VariableExplorer::open(const QModelIndex& index)
{
    if (!index.isValid() || !m_runner)
        return;
    const QString name = index.siblingAtColumn(Name).data().toString();
    const QString type = index.siblingAtColumn(Type).data().toString();
    emit openVariable(name, type);
    if (m_queue && m_queue->isBusy()) {
        setStatus(
            QStringLiteral("A cell is running: double-click %1 again when it ends.").arg(name));
        return;
    }
    if (opensAsTable(type))
        openTable(name);
    else
        showRepr(name);
}

bool VariableExplorer::opensAsTable(const QString& type)
{
    return type == QLatin1String("pandas.DataFrame") || type == QLatin1String("pandas.Series");
}

void VariableExplorer::showRepr(const QString& name)
{
    ++m_requests;
    m_runner->listVariables(name, this, [this, name](VariableList list) {
        QString text;
        if (!list.error.isEmpty())
            text = QStringLiteral("Could not read %1: %2").arg(name, list.error);
        else if (list.variables.isEmpty())
            text = QStringLiteral("%1 is no longer defined.").arg(name);
        else {
            const Variable& v = list.variables.first();
            const QString shape = v.shape.isEmpty() ? QString() : QStringLiteral(", ") + v.shape;
            text = QStringLiteral("%1: %2%3\n\n%4").arg(v.name, v.type, shape, v.repr);
        }
        // As the help panel shows docstrings: monospace, wrapped to the panel's width.
        m_detail->setHtml(
            QStringLiteral("<div style=\"font-family:monospace;white-space:pre-wrap\">%1</div>")
                .arg(text.toHtmlEscaped()));
        m_detail->show();
    });
}

void VariableExplorer::openTable(const QString& name)
{
    ++m_requests;
    setStatus(QStringLiteral("Opening %1…").arg(name));
    m_runner->tableForVariable(name, this, [this, name](nlohmann::json reply, QString error) {
        std::optional<TableInfo> info;
        if (error.isEmpty())
            info = parseTable(reply, &error);
        if (!info) {
            setStatus(QStringLiteral("Could not open %1: %2").arg(name, error));
            return;
        }
        // Rows after the first come from the kernel as the viewer scrolls, through the same
        // runner; once it is gone the viewer keeps what it has and says so.
        const auto fetch = lizard::notebook::TableModel::fetcherOf(m_runner);
        auto* viewer = new TableViewerDialog(name, std::move(*info), fetch, window());
        viewer->setAttribute(Qt::WA_DeleteOnClose);
        viewer->show();
        setStatus(
            QStringLiteral("%1 opened in the table viewer (%2).").arg(name, viewer->shapeText()));
        emit viewerOpened(viewer);
    });
}

void VariableExplorer::setStatus(const QString& text)
{
    m_status->setText(text);
}

} // namespace lizard::ui::notebook
