#include "ui/notebook/tableoutputview.h"

#include "notebook/coderunner.h"
#include "notebook/tablemodel.h"
#include "ui/notebook/celllistwidget.h"
#include "ui/notebook/datatableview.h"

#include <QDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

namespace lizard::ui::notebook {

using namespace lizard::notebook;

namespace {
constexpr int kInlineRows = 12; // rows shown in the cell; the viewer shows many more
}

std::optional<TableInfo> TableOutputView::tableOf(const RichOutput& output, QString* error)
{
    const auto it = output.data.find(kTableMime);
    if (it == output.data.end())
        return std::nullopt;
    if (it->is_string()) { // kept as text (not parsed on the way): parse it now
        const auto parsed = nlohmann::json::parse(it->get<std::string>(), nullptr, false);
        if (parsed.is_discarded()) {
            if (error)
                *error = QStringLiteral("malformed table: not JSON");
            return std::nullopt;
        }
        return parseTable(parsed, error);
    }
    return parseTable(*it, error);
}

TableOutputView::TableOutputView(const RichOutput& output, TableInfo info, QWidget* parent)
    : OutputView(parent), m_table(new DataTableView), m_shape(new QLabel), m_status(new QLabel),
      m_open(new QToolButton)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_table);
    auto* footer = new QHBoxLayout;
    footer->setContentsMargins(2, 0, 2, 0);
    footer->setSpacing(16);
    m_shape->setObjectName(QStringLiteral("tableShape"));
    m_status->setObjectName(QStringLiteral("tableStatus"));
    m_status->setStyleSheet(QStringLiteral("color: palette(placeholder-text);"));
    m_open->setText(tr("Open in viewer"));
    m_open->setToolTip(tr("Show this table in a larger window (or double-click a cell)"));
    m_open->setAutoRaise(true);
    footer->addWidget(m_shape);
    footer->addWidget(m_status, 1);
    footer->addWidget(m_open);
    layout->addLayout(footer);
    connect(m_open, &QToolButton::clicked, this, &TableOutputView::openViewer);
    connectTable(m_table);
    m_plain = output.text(QStringLiteral("text/plain"));
    setTable(std::move(info));
}

TableOutputView::~TableOutputView()
{
    delete m_viewer; // it shows our model
}

void TableOutputView::connectTable(DataTableView* table)
{
    connect(table, &DataTableView::copied, this,
            [this](int rows, int missing) { setNote(copiedText(rows, missing)); });
    connect(table, &DataTableView::sortRefused, this, &TableOutputView::setNote);
    connect(table, &QAbstractItemView::doubleClicked, this, [this, table] {
        if (table == m_table)
            openViewer();
    });
}

void TableOutputView::setTable(TableInfo info)
{
    delete m_viewer;
    TableModel* old = m_model;
    m_model = new TableModel(std::move(info), this);
    m_table->setTableModel(m_model);
    delete old;
    const TableInfo& t = m_model->info();
    m_shape->setText(shapeOf(t));
    m_table->setFixedHeight(
        m_table->heightForRows(int(std::min<qint64>(std::max<qint64>(t.rows, 1), kInlineRows))));
    setNote({});
    connect(m_model, &TableModel::unavailable, this, &TableOutputView::refreshStatus);
    connect(m_model, &TableModel::loadingChanged, this, &TableOutputView::refreshStatus);
    connect(m_model, &QAbstractItemModel::headerDataChanged, this,
            [this] { setNote(sortNote(m_model)); });
    m_runner = nullptr;
    attachRunner();
}

void TableOutputView::attachRunner()
{
    if (m_runner)
        return;
    for (QWidget* w = parentWidget(); w; w = w->parentWidget()) {
        if (auto* list = qobject_cast<CellListWidget*>(w)) {
            m_runner = list->runner();
            break;
        }
    }
    if (!m_runner)
        return;
    m_model->setFetcher(TableModel::fetcherOf(m_runner));
}

void TableOutputView::showEvent(QShowEvent* event)
{
    OutputView::showEvent(event);
    attachRunner(); // made before it was placed in a cell: the cell list is an ancestor now
}

QString TableOutputView::copiedText(int rows, int missing)
{
    const QString copied =
        tr("Copied %1 %2 as TSV").arg(rows).arg(rows == 1 ? tr("row") : tr("rows"));
    return missing ? copied + tr(" (%1 not loaded yet were left out)").arg(missing) : copied;
}

void TableOutputView::setNote(const QString& text)
{
    m_note = text;
    refreshStatus();
}

QString TableOutputView::shapeOf(const TableInfo& info)
{
    return info.series ? tableShapeText(info.rows, 1).section(u'×', 0, 0).trimmed()
                       : tableShapeText(info.rows, info.columns.size());
}

QString TableOutputView::statusOf(const TableModel* model, const QString& note)
{
    if (!model->unavailableReason().isEmpty())
        return tr("More rows are not available: %1").arg(model->unavailableReason());
    if (model->isLoading())
        return note.isEmpty() ? tr("loading rows…") : note + tr(" — loading rows…");
    return note;
}

QString TableOutputView::sortNote(const TableModel* model)
{
    if (model->sortColumn() < 0)
        return {};
    return tr("sorted by %1, %2 (in the kernel)")
        .arg(model->headerData(model->sortColumn(), Qt::Horizontal).toString(),
             model->sortOrder() == Qt::AscendingOrder ? tr("ascending") : tr("descending"));
}

void TableOutputView::refreshStatus()
{
    const QString text = statusOf(m_model, m_note);
    m_status->setText(text);
    m_status->setToolTip(text);
    emit statusChanged(text);
}

QString TableOutputView::shapeText() const
{
    return m_shape->text();
}

QString TableOutputView::statusText() const
{
    return m_status->text();
}

bool TableOutputView::setOutput(const Output& output)
{
    const auto* rich = std::get_if<RichOutput>(&output);
    if (!rich)
        return false;
    std::optional<TableInfo> info = tableOf(*rich);
    if (!info)
        return false;
    m_plain = rich->text(QStringLiteral("text/plain"));
    setTable(std::move(*info));
    return true;
}

QString TableOutputView::plainText() const
{
    return m_plain;
}

QWidget* TableOutputView::openViewer()
{
    if (m_viewer) {
        m_viewer->raise();
        m_viewer->activateWindow();
        return m_viewer;
    }
    auto* dialog = new QDialog(window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setObjectName(QStringLiteral("tableViewer"));
    dialog->setWindowTitle(tr("Table — %1").arg(m_shape->text()));
    auto* layout = new QVBoxLayout(dialog);
    auto* table = new DataTableView;
    table->setTableModel(m_model);
    auto* footer = new QHBoxLayout;
    auto* shape = new QLabel(m_shape->text());
    auto* status = new QLabel(m_status->text());
    status->setStyleSheet(m_status->styleSheet());
    connect(this, &TableOutputView::statusChanged, status, &QLabel::setText);
    footer->addWidget(shape);
    footer->addWidget(status, 1);
    layout->addWidget(table, 1);
    layout->addLayout(footer);
    connect(table, &DataTableView::copied, this,
            [this](int rows, int missing) { setNote(copiedText(rows, missing)); });
    connect(table, &DataTableView::sortRefused, this, &TableOutputView::setNote);
    // Sorting in one view sorts the rows both show: keep the other's indicator right.
    connect(m_model, &QAbstractItemModel::headerDataChanged, table, [this, table] {
        for (DataTableView* t : {m_table, table}) {
            t->horizontalHeader()->setSortIndicatorShown(m_model->sortColumn() >= 0);
            if (m_model->sortColumn() >= 0)
                t->horizontalHeader()->setSortIndicator(m_model->sortColumn(),
                                                        m_model->sortOrder());
        }
    });
    dialog->resize(std::min(1100, std::max(600, table->horizontalHeader()->length() + 40)), 640);
    m_viewer = dialog;
    dialog->show();
    return dialog;
}

} // namespace lizard::ui::notebook
