#include "ui/schedules/schedulespanel.h"

#include "models/schedules/schedulelistmodel.h"
#include "models/schedules/schedulerunmodel.h"
#include "models/schedules/scheduletime.h"
#include "ui/schedules/scheduledialog.h"
#include "ui/theme/icontheme.h"

#include <QAction>
#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>

namespace lizard::ui::schedules {

using models::ScheduleListModel;
using models::ScheduleRunModel;

namespace {

void setUpScheduleTable(QTableView* view)
{
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setHighlightSections(false);
}

} // namespace

SchedulesPanel::SchedulesPanel(QWidget* parent)
    : QWidget(parent), m_model(new ScheduleListModel(this)), m_runs(new ScheduleRunModel(this)),
      m_view(new QTableView), m_runsView(new QTableView), m_output(new QPlainTextEdit),
      m_status(new QLabel), m_runsTitle(new QLabel)
{
    setObjectName(QStringLiteral("schedulesPanel"));
    auto* bar = new QToolBar;
    m_add = bar->addAction(IconTheme::icon(QStringLiteral("list-add")), QStringLiteral("Add…"));
    m_add->setToolTip(QStringLiteral("Run a command in this sandbox every so often or at set "
                                     "times; a paused sandbox is woken for it"));
    m_edit =
        bar->addAction(IconTheme::icon(QStringLiteral("edit-rename")), QStringLiteral("Edit…"));
    m_enable = bar->addAction(IconTheme::icon(QStringLiteral("media-playback-start")),
                              QStringLiteral("Enable"));
    m_enable->setToolTip(QStringLiteral("Switch the schedule on (its failure count starts over)"));
    m_disable = bar->addAction(IconTheme::icon(QStringLiteral("media-playback-pause")),
                               QStringLiteral("Disable"));
    m_disable->setToolTip(QStringLiteral("Switch the schedule off; it keeps its runs"));
    m_runNow = bar->addAction(IconTheme::icon(QStringLiteral("lizard-run-all")),
                              QStringLiteral("Run now"));
    m_runNow->setToolTip(QStringLiteral("Start a run at once (and switch the schedule on)"));
    m_delete =
        bar->addAction(IconTheme::icon(QStringLiteral("edit-delete")), QStringLiteral("Delete"));
    bar->addSeparator();
    m_refresh =
        bar->addAction(IconTheme::icon(QStringLiteral("view-refresh")), QStringLiteral("Refresh"));

    m_view->setObjectName(QStringLiteral("scheduleTable"));
    m_view->setModel(m_model);
    setUpScheduleTable(m_view);
    QHeaderView* header = m_view->horizontalHeader();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(ScheduleListModel::CommandColumn, QHeaderView::Stretch);
    m_view->setColumnWidth(ScheduleListModel::NameColumn, 130);
    m_view->setColumnWidth(ScheduleListModel::WhenColumn, 170);
    m_view->setColumnWidth(ScheduleListModel::NextRunColumn, 100);
    m_view->setColumnWidth(ScheduleListModel::LastStatusColumn, 95);
    m_view->setColumnWidth(ScheduleListModel::FailuresColumn, 115);
    m_view->setColumnWidth(ScheduleListModel::SkippedColumn, 65);
    m_view->setColumnWidth(ScheduleListModel::StateColumn, 75);

    m_runsView->setObjectName(QStringLiteral("scheduleRunsTable"));
    m_runsView->setModel(m_runs);
    setUpScheduleTable(m_runsView);
    m_runsView->horizontalHeader()->setStretchLastSection(true);
    m_runsView->setColumnWidth(ScheduleRunModel::StartedColumn, 120);
    m_runsView->setColumnWidth(ScheduleRunModel::StatusColumn, 110);
    m_runsView->setColumnWidth(ScheduleRunModel::ExitCodeColumn, 70);
    m_runsView->setColumnWidth(ScheduleRunModel::DurationColumn, 80);
    m_output->setObjectName(QStringLiteral("scheduleRunOutput"));
    m_output->setReadOnly(true);
    m_output->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_output->setPlaceholderText(QStringLiteral("The output of the selected run"));
    m_output->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_runsTitle->setObjectName(QStringLiteral("scheduleRunsTitle"));
    m_status->setObjectName(QStringLiteral("schedulesStatus"));
    m_status->setWordWrap(true);

    auto* runsBox = new QWidget;
    auto* runsLayout = new QVBoxLayout(runsBox);
    runsLayout->setContentsMargins(0, 4, 0, 0);
    runsLayout->addWidget(m_runsTitle);
    auto* runsSplit = new QSplitter(Qt::Horizontal);
    runsSplit->addWidget(m_runsView);
    runsSplit->addWidget(m_output);
    runsSplit->setStretchFactor(0, 2);
    runsSplit->setStretchFactor(1, 3);
    runsLayout->addWidget(runsSplit, 1);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_view);
    split->addWidget(runsBox);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(bar);
    layout->addWidget(split, 1);
    layout->addWidget(m_status);

    connect(m_add, &QAction::triggered, this, &SchedulesPanel::openAddDialog);
    connect(m_edit, &QAction::triggered, this, &SchedulesPanel::openEditDialog);
    connect(m_view, &QTableView::doubleClicked, this, &SchedulesPanel::openEditDialog);
    connect(m_enable, &QAction::triggered, this,
            [this] { m_model->setEnabled(selectedScheduleId(), true); });
    connect(m_disable, &QAction::triggered, this,
            [this] { m_model->setEnabled(selectedScheduleId(), false); });
    connect(m_runNow, &QAction::triggered, this, [this] {
        m_selectedRunId.clear(); // show the run just started
        m_model->runNow(selectedScheduleId());
    });
    connect(m_delete, &QAction::triggered, this, &SchedulesPanel::confirmDelete);
    connect(m_refresh, &QAction::triggered, this, [this] {
        m_model->refresh();
        m_runs->refresh();
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &SchedulesPanel::scheduleSelectionChanged);
    connect(m_runsView->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        if (m_restoring)
            return;
        const QModelIndexList rows = m_runsView->selectionModel()->selectedRows();
        // Picking the newest run means following the newest.
        m_selectedRunId = rows.isEmpty() || rows.first().row() == 0
                              ? QString()
                              : rows.first().data(ScheduleRunModel::IdRole).toString();
        showSelectedRun();
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, &SchedulesPanel::restoreSelection);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &SchedulesPanel::restoreSelection);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &SchedulesPanel::updateActions);
    connect(m_model, &ScheduleListModel::refreshed, this, [this] {
        m_lastError.clear();
        updateStatus();
    });
    connect(m_model, &ScheduleListModel::refreshFailed, this, [this](const client::ApiError& e) {
        // In the panel only: a poll every 2 s would repeat a banner.
        m_lastError = e.toDisplayString();
        updateStatus();
    });
    connect(m_model, &ScheduleListModel::operationFailed, this, &SchedulesPanel::errorOccurred);
    connect(m_model, &ScheduleListModel::changed, this,
            [this](const client::SandboxSchedule& s, const QString& what) {
                const QString name = s.name.isEmpty() ? s.id : s.name;
                emit message(QStringLiteral("Schedule %1 %2").arg(name, what));
                if (what == QLatin1String("added"))
                    selectSchedule(s.id);
                if (s.id == m_selectedId)
                    m_runs->refresh();
                updateActions();
                updateStatus();
            });
    connect(m_model, &ScheduleListModel::removed, this, [this](const QString& id) {
        emit message(QStringLiteral("Schedule %1 deleted").arg(id));
        updateStatus();
    });
    connect(m_runs, &QAbstractItemModel::modelReset, this, &SchedulesPanel::restoreRunSelection);
    connect(m_runs, &QAbstractItemModel::rowsInserted, this, &SchedulesPanel::restoreRunSelection);
    connect(m_runs, &ScheduleRunModel::refreshed, this, [this] {
        restoreRunSelection();
        showSelectedRun();
    });
    connect(m_runs, &ScheduleRunModel::refreshFailed, this, [this](const client::ApiError& e) {
        if (e.kind != client::ApiError::Kind::NotFound) { // deleted meanwhile: the list says so
            m_lastError = e.toDisplayString();
            updateStatus();
        }
    });
    updateActions();
    updateStatus();
}

void SchedulesPanel::setBackend(client::LizardApi* api)
{
    m_api = api;
    m_model->setApi(api);
    m_runs->setApi(api);
    showSandbox(QString());
}

void SchedulesPanel::showSandbox(const QString& sandboxId)
{
    if (sandboxId != m_sandboxId) {
        m_selectedId.clear();
        m_selectedRunId.clear();
        m_runs->setScheduleId(QString());
        m_output->clear();
    }
    m_sandboxId = sandboxId;
    m_lastError.clear();
    // Only a visible tab lists (every 2 s while shown).
    if (m_model->sandboxId() != (m_api && isVisible() ? sandboxId : QString()))
        m_model->setSandboxId(m_api && isVisible() ? sandboxId : QString());
    updateActions();
    updateStatus();
}

void SchedulesPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_api && m_model->sandboxId() != m_sandboxId)
        m_model->setSandboxId(m_sandboxId);
    else
        m_model->refresh();
    m_runs->refresh();
    m_model->setPolling(true);
    m_runs->setPolling(true);
}

void SchedulesPanel::hideEvent(QHideEvent* event)
{
    QWidget::hideEvent(event);
    m_model->setPolling(false);
    m_runs->setPolling(false);
}

QString SchedulesPanel::selectedScheduleId() const
{
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    return rows.isEmpty() ? QString() : rows.first().data(ScheduleListModel::IdRole).toString();
}

void SchedulesPanel::selectSchedule(const QString& id)
{
    const int row = m_model->rowOf(id);
    if (row < 0)
        return;
    m_view->selectRow(row);
    m_view->scrollTo(m_model->index(row, 0));
}

void SchedulesPanel::restoreSelection()
{
    if (m_selectedId.isEmpty() && m_model->rowCount() > 0)
        m_selectedId = m_model->scheduleAt(0)->id; // the first, so that runs show at once
    const int row = m_model->rowOf(m_selectedId);
    if (row >= 0 && selectedScheduleId() != m_selectedId)
        m_view->selectRow(row);
    updateActions();
}

void SchedulesPanel::scheduleSelectionChanged()
{
    const QString id = selectedScheduleId();
    if (id.isEmpty() && m_model->rowOf(m_selectedId) >= 0)
        return updateActions(); // a reset clears the selection; restoreSelection brings it back
    if (id != m_selectedId) {
        m_selectedRunId.clear();
        m_output->clear();
    }
    m_selectedId = id;
    m_runs->setScheduleId(id);
    const client::SandboxSchedule* s = m_model->schedule(id);
    m_runsTitle->setText(s ? QStringLiteral("Runs of %1").arg(s->name.isEmpty() ? s->id : s->name)
                           : QString());
    updateActions();
}

void SchedulesPanel::restoreRunSelection()
{
    if (m_runs->rowCount() == 0)
        return;
    int row = m_selectedRunId.isEmpty() ? 0 : m_runs->rowOf(m_selectedRunId);
    if (row < 0)
        row = 0; // the picked run fell off the list
    const QModelIndexList rows = m_runsView->selectionModel()->selectedRows();
    if (!rows.isEmpty() && rows.first().row() == row)
        return;
    m_restoring = true;
    m_runsView->selectRow(row);
    m_restoring = false;
}

void SchedulesPanel::showSelectedRun()
{
    const QModelIndexList rows = m_runsView->selectionModel()->selectedRows();
    const client::ScheduleRun* run = rows.isEmpty() ? nullptr : m_runs->runAt(rows.first().row());
    QString text;
    if (run) {
        text = run->output;
        if (!run->error.isEmpty())
            text += (text.isEmpty() || text.endsWith(QLatin1Char('\n')) ? QString()
                                                                        : QStringLiteral("\n")) +
                    QStringLiteral("[%1]").arg(run->error);
    }
    if (m_output->toPlainText() == text)
        return;
    // A run still writing keeps the view at its end, unless the reader scrolled up.
    QScrollBar* bar = m_output->verticalScrollBar();
    const bool atEnd = bar->value() >= bar->maximum();
    m_output->setPlainText(text);
    if (atEnd)
        bar->setValue(bar->maximum());
}

void SchedulesPanel::updateActions()
{
    const bool connected = m_api && !m_sandboxId.isEmpty();
    const client::SandboxSchedule* s = m_model->schedule(selectedScheduleId());
    m_add->setEnabled(connected);
    m_edit->setEnabled(connected && s);
    m_enable->setEnabled(connected && s && !s->enabled);
    m_disable->setEnabled(connected && s && s->enabled);
    m_runNow->setEnabled(connected && s && !s->running);
    m_delete->setEnabled(connected && s);
    m_refresh->setEnabled(connected);
}

QString SchedulesPanel::statusText() const
{
    return m_status->text();
}

void SchedulesPanel::updateStatus()
{
    QString text;
    if (!m_api)
        text = QStringLiteral("Not connected.");
    else if (m_sandboxId.isEmpty())
        text = QStringLiteral("Select a sandbox to see its schedules.");
    else if (!m_lastError.isEmpty())
        text = m_lastError;
    else if (!m_model->hasListed())
        text = QStringLiteral("Listing schedules…");
    else if (m_model->rowCount() == 0)
        text = QStringLiteral("No schedules. Add one to run a command in this sandbox every so "
                              "often or at set times; a paused sandbox is woken for each run and "
                              "put back to sleep.");
    else {
        QDateTime next;
        int enabled = 0;
        for (int r = 0; r < m_model->rowCount(); ++r) {
            const client::SandboxSchedule* s = m_model->scheduleAt(r);
            enabled += s->enabled ? 1 : 0;
            if (s->nextRunAt.isValid() && (!next.isValid() || s->nextRunAt < next))
                next = s->nextRunAt;
        }
        const int count = m_model->rowCount();
        text = (count == 1 ? QStringLiteral("1 schedule")
                           : QStringLiteral("%1 schedules").arg(count)) +
               QStringLiteral(", %1 enabled").arg(enabled);
        if (next.isValid())
            text += QStringLiteral(" · next run %1")
                        .arg(models::formatRelativeTime(next, QDateTime::currentDateTimeUtc()));
    }
    m_status->setText(text);
}

ScheduleDialog* SchedulesPanel::openAddDialog()
{
    if (!m_api || m_sandboxId.isEmpty())
        return nullptr;
    auto* dialog = new ScheduleDialog(m_model, nullptr, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

ScheduleDialog* SchedulesPanel::openEditDialog()
{
    const client::SandboxSchedule* s = m_model->schedule(selectedScheduleId());
    if (!m_api || !s)
        return nullptr;
    auto* dialog = new ScheduleDialog(m_model, s, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

void SchedulesPanel::confirmDelete()
{
    const client::SandboxSchedule* s = m_model->schedule(selectedScheduleId());
    if (!s)
        return;
    const QString id = s->id;
    const auto answer = QMessageBox::question(
        this, QStringLiteral("Delete schedule"),
        QStringLiteral("Delete schedule %1 and its runs? A run in progress is stopped.")
            .arg(s->name.isEmpty() ? s->id : s->name),
        QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer == QMessageBox::Yes)
        m_model->remove(id);
}

} // namespace lizard::ui::schedules
