#include "models/schedules/schedulelistmodel.h"

#include "client/lizardapi.h"
#include "models/schedules/scheduletime.h"

namespace lizard::models {

ScheduleListModel::ScheduleListModel(QObject* parent) : QAbstractTableModel(parent)
{
    m_timer.setInterval(2000);
    connect(&m_timer, &QTimer::timeout, this, &ScheduleListModel::refresh);
}

void ScheduleListModel::setApi(client::LizardApi* api)
{
    cancel();
    m_api = api;
    setSandboxId(QString());
}

void ScheduleListModel::setSandboxId(const QString& sandboxId)
{
    cancel();
    m_sandboxId = sandboxId;
    m_listed = false;
    beginResetModel();
    m_rows.clear();
    endResetModel();
    refresh();
}

void ScheduleListModel::setPolling(bool on)
{
    if (on && !m_timer.isActive())
        m_timer.start();
    else if (!on)
        m_timer.stop();
}

void ScheduleListModel::cancel()
{
    ++m_serial;
    if (m_call)
        m_call->cancel();
    m_call = nullptr;
}

void ScheduleListModel::refresh()
{
    if (!m_api || m_sandboxId.isEmpty() || m_call)
        return;
    const int serial = ++m_serial;
    m_call = m_api->listSchedules(
        m_sandboxId, this, [this, serial](client::Outcome<QList<client::SandboxSchedule>> o) {
            if (serial != m_serial)
                return; // another sandbox or connection meanwhile
            m_call = nullptr;
            if (!o.ok()) {
                if (o.error().kind != client::ApiError::Kind::Cancelled)
                    emit refreshFailed(o.error());
                return;
            }
            setSchedules(o.value());
            m_listed = true;
            emit refreshed();
        });
}

void ScheduleListModel::setSchedules(const QList<client::SandboxSchedule>& schedules)
{
    bool sameRows = schedules.size() == m_rows.size();
    for (int i = 0; sameRows && i < schedules.size(); ++i)
        sameRows = schedules.at(i).id == m_rows.at(i).id;
    if (!sameRows) {
        beginResetModel();
        m_rows = schedules;
        endResetModel();
        return;
    }
    m_rows = schedules;
    if (!m_rows.isEmpty())
        emit dataChanged(index(0, 0), index(int(m_rows.size()) - 1, ColumnCount - 1));
}

void ScheduleListModel::applied(const client::Outcome<client::SandboxSchedule>& o,
                                const QString& what, bool quiet)
{
    if (!o.ok()) {
        if (!quiet && o.error().kind != client::ApiError::Kind::Cancelled)
            emit operationFailed(o.error());
        return;
    }
    const client::SandboxSchedule& s = o.value();
    if (s.sandboxId.isEmpty() || s.sandboxId == m_sandboxId) {
        const int row = rowOf(s.id);
        if (row >= 0) {
            m_rows[row] = s;
            emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
        } else {
            beginInsertRows({}, int(m_rows.size()), int(m_rows.size()));
            m_rows.append(s);
            endInsertRows();
        }
    }
    emit changed(s, what);
    refresh();
}

namespace {

client::ApiError notConnected(const QString& what)
{
    client::ApiError e;
    e.kind = client::ApiError::Kind::Network;
    e.what = what;
    e.message = QStringLiteral("not connected to a Lizard server, or no sandbox selected");
    return e;
}

} // namespace

void ScheduleListModel::create(const client::ScheduleSpec& spec, QObject* ctx,
                               client::Done<client::SandboxSchedule> done)
{
    if (!m_api || m_sandboxId.isEmpty()) {
        if (done)
            done(notConnected(QStringLiteral("Add schedule")));
        return;
    }
    QPointer<QObject> receiver = ctx;
    m_api->createSchedule(m_sandboxId, spec, this,
                          [this, receiver, ctx, done](client::Outcome<client::SandboxSchedule> o) {
                              const bool hears = done && (!ctx || receiver);
                              applied(o, QStringLiteral("added"), hears);
                              if (hears)
                                  done(std::move(o));
                          });
}

void ScheduleListModel::update(const QString& scheduleId, const client::ScheduleSpec& spec,
                               QObject* ctx, client::Done<client::SandboxSchedule> done)
{
    if (!m_api) {
        if (done)
            done(notConnected(QStringLiteral("Edit schedule")));
        return;
    }
    QPointer<QObject> receiver = ctx;
    m_api->updateSchedule(scheduleId, spec, this,
                          [this, receiver, ctx, done](client::Outcome<client::SandboxSchedule> o) {
                              const bool hears = done && (!ctx || receiver);
                              applied(o, QStringLiteral("saved"), hears);
                              if (hears)
                                  done(std::move(o));
                          });
}

void ScheduleListModel::setEnabled(const QString& scheduleId, bool enabled)
{
    if (!m_api)
        return;
    m_api->setScheduleEnabled(
        scheduleId, enabled, this, [this, enabled](client::Outcome<client::SandboxSchedule> o) {
            applied(o, enabled ? QStringLiteral("enabled") : QStringLiteral("disabled"));
        });
}

void ScheduleListModel::runNow(const QString& scheduleId)
{
    if (!m_api)
        return;
    m_api->runSchedule(scheduleId, this, [this](client::Outcome<client::SandboxSchedule> o) {
        applied(o, QStringLiteral("started"));
    });
}

void ScheduleListModel::remove(const QString& scheduleId)
{
    if (!m_api)
        return;
    m_api->deleteSchedule(scheduleId, this, [this, scheduleId](client::Outcome<client::Unit> o) {
        if (!o.ok() && o.error().kind != client::ApiError::Kind::NotFound) {
            if (o.error().kind != client::ApiError::Kind::Cancelled)
                emit operationFailed(o.error());
            return;
        }
        const int row = rowOf(scheduleId);
        if (row >= 0) {
            beginRemoveRows({}, row, row);
            m_rows.removeAt(row);
            endRemoveRows();
        }
        emit removed(scheduleId);
        refresh();
    });
}

const client::SandboxSchedule* ScheduleListModel::schedule(const QString& id) const
{
    return scheduleAt(rowOf(id));
}

const client::SandboxSchedule* ScheduleListModel::scheduleAt(int row) const
{
    return row >= 0 && row < m_rows.size() ? &m_rows.at(row) : nullptr;
}

int ScheduleListModel::rowOf(const QString& id) const
{
    for (int i = 0; i < m_rows.size(); ++i)
        if (m_rows.at(i).id == id)
            return i;
    return -1;
}

int ScheduleListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ScheduleListModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString ScheduleListModel::whenText(const client::SandboxSchedule& s)
{
    if (!s.cron.isEmpty())
        return QStringLiteral("cron %1 (%2)")
            .arg(s.cron, s.timezone.isEmpty() ? QStringLiteral("UTC") : s.timezone);
    return QStringLiteral("every ") +
           (s.every.isEmpty() ? formatScheduleSeconds(s.everySeconds) : s.every);
}

QVariant ScheduleListModel::display(const client::SandboxSchedule& s, int column) const
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    switch (column) {
    case NameColumn:
        return s.name.isEmpty() ? s.id : s.name;
    case WhenColumn:
        return whenText(s);
    case CommandColumn:
        return s.kind == QLatin1String("prompt") ? QStringLiteral("prompt: ") + s.prompt
                                                 : s.command.simplified();
    case NextRunColumn:
        if (s.running)
            return QStringLiteral("running now");
        return s.nextRunAt.isValid() ? formatRelativeTime(s.nextRunAt, now) : QStringLiteral("—");
    case LastStatusColumn:
        return s.lastStatus.isEmpty() ? QStringLiteral("not run yet") : s.lastStatus;
    case FailuresColumn:
        return s.consecutiveFailures;
    case SkippedColumn:
        return s.skippedCount;
    case StateColumn:
        return s.enabled ? QStringLiteral("enabled") : QStringLiteral("disabled");
    default:
        return {};
    }
}

QVariant ScheduleListModel::data(const QModelIndex& index, int role) const
{
    const client::SandboxSchedule* s = index.isValid() ? scheduleAt(index.row()) : nullptr;
    if (!s)
        return {};
    switch (role) {
    case Qt::DisplayRole:
        return display(*s, index.column());
    case Qt::ToolTipRole:
        if (index.column() == NextRunColumn && s->nextRunAt.isValid())
            return s->nextRunAt.toLocalTime().toString(QStringLiteral("yyyy-MM-dd hh:mm:ss t"));
        if (index.column() == StateColumn && !s->disabledReason.isEmpty())
            return s->disabledReason;
        if (index.column() == CommandColumn)
            return s->command;
        if (index.column() == SkippedColumn)
            return QStringLiteral("Due times skipped: the previous run was still going, or "
                                  "the server was not running");
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == FailuresColumn || index.column() == SkippedColumn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case IdRole:
        return s->id;
    case EnabledRole:
        return s->enabled;
    case RunningRole:
        return s->running;
    default:
        return {};
    }
}

QVariant ScheduleListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return QStringLiteral("Name");
    case WhenColumn:
        return QStringLiteral("When");
    case CommandColumn:
        return QStringLiteral("Command");
    case NextRunColumn:
        return QStringLiteral("Next run");
    case LastStatusColumn:
        return QStringLiteral("Last status");
    case FailuresColumn:
        return QStringLiteral("Failures in a row");
    case SkippedColumn:
        return QStringLiteral("Skipped");
    case StateColumn:
        return QStringLiteral("State");
    default:
        return {};
    }
}

} // namespace lizard::models
