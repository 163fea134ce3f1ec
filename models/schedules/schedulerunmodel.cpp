#include "models/schedules/schedulerunmodel.h"

#include "client/lizardapi.h"
#include "models/schedules/scheduletime.h"
#include "models/timeformat.h"

namespace lizard::models {

ScheduleRunModel::ScheduleRunModel(QObject* parent) : QAbstractTableModel(parent)
{
    m_timer.setInterval(2000);
    connect(&m_timer, &QTimer::timeout, this, &ScheduleRunModel::refresh);
}

void ScheduleRunModel::setApi(client::LizardApi* api)
{
    cancel();
    m_api = api;
    setScheduleId(QString());
}

void ScheduleRunModel::setScheduleId(const QString& scheduleId)
{
    if (scheduleId == m_scheduleId && m_listed)
        return refresh();
    cancel();
    m_scheduleId = scheduleId;
    m_listed = false;
    beginResetModel();
    m_rows.clear();
    endResetModel();
    refresh();
}

void ScheduleRunModel::setPolling(bool on)
{
    if (on && !m_timer.isActive())
        m_timer.start();
    else if (!on)
        m_timer.stop();
}

void ScheduleRunModel::cancel()
{
    ++m_serial;
    if (m_call)
        m_call->cancel();
    m_call = nullptr;
}

void ScheduleRunModel::refresh()
{
    if (!m_api || m_scheduleId.isEmpty() || m_call)
        return;
    const int serial = ++m_serial;
    m_call = m_api->scheduleRuns(m_scheduleId, kRunsShown, this,
                                 [this, serial](client::Outcome<QList<client::ScheduleRun>> o) {
                                     if (serial != m_serial)
                                         return; // another schedule meanwhile
                                     m_call = nullptr;
                                     if (!o.ok()) {
                                         if (o.error().kind != client::ApiError::Kind::Cancelled)
                                             emit refreshFailed(o.error());
                                         return;
                                     }
                                     setRuns(o.value());
                                     m_listed = true;
                                     emit refreshed();
                                 });
}

void ScheduleRunModel::setRuns(const QList<client::ScheduleRun>& runs)
{
    // Newest first: a new run is a row on top; older ones past the limit fall off the bottom.
    int newOnTop = 0;
    while (newOnTop < runs.size() && rowOf(runs.at(newOnTop).id) < 0)
        ++newOnTop;
    bool sameTail = m_rows.size() + newOnTop >= runs.size();
    for (int i = newOnTop; sameTail && i < runs.size(); ++i)
        sameTail = runs.at(i).id == m_rows.at(i - newOnTop).id;
    if (!sameTail) {
        beginResetModel();
        m_rows = runs;
        endResetModel();
        return;
    }
    if (newOnTop > 0) {
        beginInsertRows({}, 0, newOnTop - 1);
        m_rows = runs.mid(0, newOnTop) + m_rows;
        endInsertRows();
    }
    if (m_rows.size() > runs.size()) {
        beginRemoveRows({}, int(runs.size()), int(m_rows.size()) - 1);
        m_rows.resize(runs.size());
        endRemoveRows();
    }
    for (int i = newOnTop; i < runs.size(); ++i)
        m_rows[i] = runs.at(i);
    if (newOnTop < m_rows.size())
        emit dataChanged(index(newOnTop, 0), index(int(m_rows.size()) - 1, ColumnCount - 1));
}

const client::ScheduleRun* ScheduleRunModel::runAt(int row) const
{
    return row >= 0 && row < m_rows.size() ? &m_rows.at(row) : nullptr;
}

int ScheduleRunModel::rowOf(const QString& runId) const
{
    for (int i = 0; i < m_rows.size(); ++i)
        if (m_rows.at(i).id == runId)
            return i;
    return -1;
}

int ScheduleRunModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ScheduleRunModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString ScheduleRunModel::statusText(const client::ScheduleRun& run)
{
    if (!run.finished)
        return QStringLiteral("running…");
    if (run.status == QLatin1String("failed") && run.exitCode)
        return QStringLiteral("failed (exit %1)").arg(*run.exitCode);
    return run.status;
}

QVariant ScheduleRunModel::data(const QModelIndex& index, int role) const
{
    const client::ScheduleRun* run = index.isValid() ? runAt(index.row()) : nullptr;
    if (!run)
        return {};
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case StartedColumn:
            return formatStarted(run->startedAt, QDateTime::currentDateTime());
        case StatusColumn:
            return statusText(*run);
        case ExitCodeColumn:
            return run->exitCode ? QVariant(*run->exitCode) : QVariant(QStringLiteral("—"));
        case DurationColumn:
            return run->finished ? formatScheduleDuration(run->durationMs) : QString();
        case SleepColumn:
            if (!run->woke)
                return QStringLiteral("was running");
            return run->slept ? QStringLiteral("woke it, put it back to sleep")
                              : QStringLiteral("woke it");
        default:
            return {};
        }
    case Qt::ToolTipRole:
        if (index.column() == StartedColumn && run->startedAt.isValid())
            return run->startedAt.toLocalTime().toString(QStringLiteral("yyyy-MM-dd hh:mm:ss t"));
        if (!run->error.isEmpty())
            return run->error;
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == ExitCodeColumn || index.column() == DurationColumn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case IdRole:
        return run->id;
    case OutputRole:
        return run->output;
    case ErrorRole:
        return run->error;
    default:
        return {};
    }
}

QVariant ScheduleRunModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case StartedColumn:
        return QStringLiteral("Started");
    case StatusColumn:
        return QStringLiteral("Status");
    case ExitCodeColumn:
        return QStringLiteral("Exit code");
    case DurationColumn:
        return QStringLiteral("Duration");
    case SleepColumn:
        return QStringLiteral("Sandbox");
    default:
        return {};
    }
}

} // namespace lizard::models
