#include "ui/logsview.h"

#include "models/sandboxlogmodel.h"
#include "ui/theme/icontheme.h"

#include <QAction>
#include <QBrush>
#include <QColor>
#include <QFont>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>

namespace lizard::ui {

namespace {

using Model = models::SandboxLogModel;

// The filter, and the colours of a row by its level: errors in bold red on a light red
// background, warnings in amber.
class LevelStyleProxy : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    QVariant data(const QModelIndex& index, int role) const override
    {
        if (role != Qt::ForegroundRole && role != Qt::BackgroundRole && role != Qt::FontRole)
            return QSortFilterProxyModel::data(index, role);
        const QString level = QSortFilterProxyModel::data(index, Model::LevelRole).toString();
        const bool error = level == QLatin1String("error");
        if (role == Qt::ForegroundRole && (error || level == QLatin1String("warn")))
            return QBrush(error ? QColor(0xb0, 0x10, 0x20) : QColor(0x8a, 0x5a, 0x00));
        if (role == Qt::BackgroundRole && error)
            return QBrush(QColor(0xfd, 0xe4, 0xe6));
        if (role == Qt::FontRole && error) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return QSortFilterProxyModel::data(index, role);
    }
};

} // namespace

LogsView::LogsView(QWidget* parent)
    : QWidget(parent), m_model(new Model(this)), m_proxy(new LevelStyleProxy(this)),
      m_view(new QTableView(this)), m_filter(new QLineEdit(this)), m_status(new QLabel(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);

    auto* bar = new QToolBar(this);
    bar->setIconSize(QSize(16, 16));
    m_filter->setObjectName(QStringLiteral("logsFilter"));
    m_filter->setPlaceholderText(tr("Filter (any text, e.g. error or oom)"));
    m_filter->setClearButtonEnabled(true);
    bar->addWidget(m_filter);
    m_clear = bar->addAction(IconTheme::icon(QStringLiteral("edit-clear")), tr("Clear view"));
    m_clear->setObjectName(QStringLiteral("logsClear"));
    m_clear->setToolTip(tr("Remove the lines shown so far; new lines keep coming"));
    connect(m_clear, &QAction::triggered, m_model, &Model::clear);
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterFixedString(text);
        if (m_followTail)
            m_view->scrollToBottom();
    });

    m_view->setObjectName(QStringLiteral("logsTable"));
    m_view->setModel(m_proxy);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setWordWrap(false);
    m_view->setShowGrid(false);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setHighlightSections(false);
    m_view->setColumnWidth(Model::TimeColumn,
                           fontMetrics().horizontalAdvance(QStringLiteral("00:00:00.000")) + 16);
    m_view->setColumnWidth(Model::LevelColumn,
                           fontMetrics().horizontalAdvance(QStringLiteral("ERROR")) + 24);
    m_view->setColumnWidth(Model::SourceColumn,
                           fontMetrics().horizontalAdvance(QStringLiteral("lifecycle")) + 20);
    // The range grows once the view laid out new rows: that is when to go to the bottom.
    connect(m_view->verticalScrollBar(), &QScrollBar::rangeChanged, this,
            &LogsView::onRangeChanged);
    connect(m_view->verticalScrollBar(), &QScrollBar::valueChanged, this, &LogsView::onScrolled);

    m_status->setObjectName(QStringLiteral("logsStatus"));
    m_status->setText(m_model->statusText());
    connect(m_model, &Model::statusChanged, m_status, &QLabel::setText);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(bar);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_status);
}

void LogsView::setBackend(client::LizardApi* api)
{
    m_model->setApi(api);
}

void LogsView::showSandbox(const QString& sandboxId)
{
    m_followTail = true;
    m_model->setSandbox(sandboxId);
}

QString LogsView::statusText() const
{
    return m_model->statusText();
}

void LogsView::onScrolled()
{
    // At the bottom (or nothing to scroll): follow new lines; scrolled up: leave the view be.
    const QScrollBar* bar = m_view->verticalScrollBar();
    m_followTail = bar->value() >= bar->maximum();
}

void LogsView::onRangeChanged()
{
    if (m_followTail)
        m_view->verticalScrollBar()->setValue(m_view->verticalScrollBar()->maximum());
}

} // namespace lizard::ui
