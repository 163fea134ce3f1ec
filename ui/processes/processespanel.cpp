#include "ui/processes/processespanel.h"

#include "models/processtreemodel.h"
#include "models/sizeformat.h"
#include "ui/theme/icontheme.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

namespace lizard::ui::processes {

using models::ProcessTreeModel;

ProcessesPanel::ProcessesPanel(QWidget* parent)
    : QWidget(parent), m_model(new ProcessTreeModel(this)),
      m_proxy(new QSortFilterProxyModel(this)), m_view(new QTreeView), m_filter(new QLineEdit),
      m_status(new QLabel)
{
    setObjectName(QStringLiteral("processesPanel"));
    auto* bar = new QToolBar;
    m_terminate = bar->addAction(IconTheme::icon(QStringLiteral("process-stop")),
                                 QStringLiteral("Terminate"));
    m_terminate->setToolTip(QStringLiteral("Ask the selected processes to end (SIGTERM)"));
    m_kill = bar->addAction(IconTheme::icon(QStringLiteral("lizard-kill")), QStringLiteral("Kill"));
    m_kill->setToolTip(QStringLiteral("End the selected processes at once (SIGKILL)"));
    m_killTree = bar->addAction(IconTheme::icon(QStringLiteral("lizard-kill-tree")),
                                QStringLiteral("Kill with children"));
    m_killTree->setToolTip(
        QStringLiteral("End the selected processes and everything they started (SIGKILL)"));
    bar->addSeparator();
    m_refresh =
        bar->addAction(IconTheme::icon(QStringLiteral("view-refresh")), QStringLiteral("Refresh"));
    m_filter->setPlaceholderText(QStringLiteral("Filter by pid, user or command"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setObjectName(QStringLiteral("processFilter"));
    bar->addSeparator();
    bar->addWidget(m_filter);

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(ProcessTreeModel::SortRole);
    m_proxy->setFilterRole(ProcessTreeModel::FilterRole);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setRecursiveFilteringEnabled(true);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(ProcessTreeModel::PidColumn, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setSectionResizeMode(ProcessTreeModel::CommandColumn, QHeaderView::Stretch);
    m_view->setColumnWidth(ProcessTreeModel::PidColumn, 70);
    m_view->setColumnWidth(ProcessTreeModel::UserColumn, 80);
    m_view->setColumnWidth(ProcessTreeModel::CpuColumn, 70);
    m_view->setColumnWidth(ProcessTreeModel::MemoryColumn, 80);
    m_view->setColumnWidth(ProcessTreeModel::ThreadsColumn, 60);
    m_view->setColumnWidth(ProcessTreeModel::StateColumn, 90);
    m_view->setColumnWidth(ProcessTreeModel::StartedColumn, 120);
    m_status->setObjectName(QStringLiteral("processesStatus"));
    m_status->setWordWrap(true);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(bar);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_status);

    connect(m_terminate, &QAction::triggered, this,
            [this] { signalPids(selectedPids(), QStringLiteral("SIGTERM"), false); });
    connect(m_kill, &QAction::triggered, this,
            [this] { signalPids(selectedPids(), QStringLiteral("SIGKILL"), false); });
    connect(m_killTree, &QAction::triggered, this,
            [this] { signalPids(selectedPids(), QStringLiteral("SIGKILL"), true); });
    connect(m_refresh, &QAction::triggered, m_model, &ProcessTreeModel::refresh);
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterFixedString(text);
        restoreViewState();
    });
    connect(m_view, &QWidget::customContextMenuRequested, this, &ProcessesPanel::showContextMenu);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        if (!m_restoring) {
            m_selected.clear();
            for (int pid : selectedPids())
                m_selected.insert(pid);
            m_current = m_view->currentIndex().data(ProcessTreeModel::PidRole).toInt();
        }
        updateActions();
    });
    connect(m_view, &QTreeView::collapsed, this, [this](const QModelIndex& i) {
        if (!m_restoring)
            m_collapsed.insert(i.data(ProcessTreeModel::PidRole).toInt());
    });
    connect(m_view, &QTreeView::expanded, this, [this](const QModelIndex& i) {
        if (!m_restoring)
            m_collapsed.remove(i.data(ProcessTreeModel::PidRole).toInt());
    });
    connect(m_model, &QAbstractItemModel::modelAboutToBeReset, this,
            &ProcessesPanel::rememberViewState);
    connect(m_model, &QAbstractItemModel::modelReset, this, &ProcessesPanel::restoreViewState);
    connect(m_model, &ProcessTreeModel::signalFailed, this, &ProcessesPanel::errorOccurred);
    connect(m_model, &ProcessTreeModel::signalled, this, [this](int pid, const QString& signal) {
        emit message(QStringLiteral("Sent %1 to process %2").arg(signal).arg(pid));
    });
    connect(m_model, &ProcessTreeModel::refreshed, this, [this] {
        m_lastError.clear();
        updateStatus();
    });
    connect(m_model, &ProcessTreeModel::refreshFailed, this, [this](const client::ApiError& e) {
        // In the panel only: a poll every 2 s would repeat a banner.
        if (e.httpStatus == 404 && e.code != QLatin1String("NOT_FOUND"))
            m_lastError = QStringLiteral(
                "This server lists no process tree (it is an extension of lizard-local; the "
                "Lizard cloud lists only the commands started through exec).");
        else if (e.kind == client::ApiError::Kind::Conflict)
            m_lastError = QStringLiteral("The sandbox is paused: resume it to see its processes.");
        else
            m_lastError = e.toDisplayString();
        updateStatus();
    });
    updateActions();
    updateStatus();
}

void ProcessesPanel::setBackend(client::LizardApi* api)
{
    m_api = api;
    m_model->setApi(api);
    showSandbox(QString());
}

void ProcessesPanel::showSandbox(const QString& sandboxId)
{
    if (sandboxId != m_sandboxId) {
        m_selected.clear();
        m_collapsed.clear();
        m_current = 0;
        m_scroll = 0;
    }
    m_sandboxId = sandboxId;
    m_lastError.clear();
    // Only a visible tab lists: the tree costs the agent a walk of /proc.
    m_model->setSandboxId(m_api && isVisible() ? sandboxId : QString());
    updateActions();
    updateStatus();
}

void ProcessesPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_api && m_model->sandboxId() != m_sandboxId)
        m_model->setSandboxId(m_sandboxId);
    else
        m_model->refresh();
    m_model->setPolling(true);
}

void ProcessesPanel::hideEvent(QHideEvent* event)
{
    QWidget::hideEvent(event);
    m_model->setPolling(false);
}

QList<int> ProcessesPanel::selectedPids() const
{
    QList<int> out;
    for (const QModelIndex& i : m_view->selectionModel()->selectedRows())
        if (!i.data(ProcessTreeModel::SystemRole).toBool())
            out << i.data(ProcessTreeModel::PidRole).toInt();
    return out;
}

void ProcessesPanel::selectPid(int pid)
{
    const QModelIndex at = m_proxy->mapFromSource(m_model->indexOfPid(pid));
    if (!at.isValid())
        return;
    m_view->scrollTo(at);
    m_view->selectionModel()->setCurrentIndex(at, QItemSelectionModel::ClearAndSelect |
                                                      QItemSelectionModel::Rows);
}

void ProcessesPanel::rememberViewState()
{
    m_restoring = true; // the reset's own selection and expansion changes are not the user's
    m_scroll = m_view->verticalScrollBar()->value();
}

void ProcessesPanel::restoreViewState()
{
    m_restoring = true;
    m_view->expandAll();
    QItemSelection selection;
    for (int pid : std::as_const(m_collapsed)) {
        const QModelIndex at = m_proxy->mapFromSource(m_model->indexOfPid(pid));
        if (at.isValid())
            m_view->collapse(at);
    }
    for (int pid : std::as_const(m_selected)) {
        const QModelIndex at = m_proxy->mapFromSource(m_model->indexOfPid(pid));
        if (at.isValid())
            selection.select(at, at);
    }
    m_view->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect |
                                                    QItemSelectionModel::Rows);
    const QModelIndex current = m_proxy->mapFromSource(m_model->indexOfPid(m_current));
    if (current.isValid())
        m_view->selectionModel()->setCurrentIndex(current, QItemSelectionModel::NoUpdate);
    m_view->verticalScrollBar()->setValue(m_scroll);
    m_restoring = false;
    updateActions();
}

void ProcessesPanel::signalPids(const QList<int>& pids, const QString& signal, bool tree)
{
    m_model->sendSignal(pids, signal, tree);
}

void ProcessesPanel::updateActions()
{
    const bool any = m_api && !m_sandboxId.isEmpty() && !selectedPids().isEmpty();
    m_terminate->setEnabled(any);
    m_kill->setEnabled(any);
    m_killTree->setEnabled(any);
    m_refresh->setEnabled(m_api && !m_sandboxId.isEmpty());
}

QString ProcessesPanel::statusText() const
{
    return m_status->text();
}

void ProcessesPanel::updateStatus()
{
    QString text;
    if (!m_api)
        text = QStringLiteral("Not connected.");
    else if (m_sandboxId.isEmpty())
        text = QStringLiteral("Select a sandbox to see its processes.");
    else if (!m_lastError.isEmpty())
        text = m_lastError;
    else if (!m_model->hasListed())
        text = QStringLiteral("Listing processes…");
    else {
        const double cores = m_model->totalCores();
        text = QStringLiteral("%1 processes · CPU %2 · memory %3 (resident, shared pages counted "
                              "in each process)")
                   .arg(m_model->processCount())
                   .arg(cores < 0 ? QStringLiteral("measuring…")
                                  : QString::number(cores * 100, 'f', 1) + QLatin1Char('%'))
                   .arg(models::formatBytes(m_model->totalRssBytes()));
        if (m_model->truncated())
            text += QStringLiteral(" · only the first %1 are listed").arg(m_model->processCount());
    }
    m_status->setText(text);
}

void ProcessesPanel::showContextMenu(const QPoint& pos)
{
    const QModelIndex at = m_view->indexAt(pos);
    if (!at.isValid())
        return;
    QMenu menu(this);
    menu.addAction(m_terminate);
    menu.addAction(m_kill);
    menu.addAction(m_killTree);
    menu.addSeparator();
    const QString command = at.siblingAtColumn(ProcessTreeModel::CommandColumn).data().toString();
    menu.addAction(IconTheme::icon(QStringLiteral("edit-copy")),
                   QStringLiteral("Copy command line"), this,
                   [command] { QApplication::clipboard()->setText(command); });
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

} // namespace lizard::ui::processes
