#include "models/activity/activitylistmodel.h"

#include "client/activitystream.h"
#include "client/lizardapi.h"
#include "models/sizeformat.h"

#include <QDateTime>
#include <algorithm>

namespace lizard::models {

namespace {

constexpr int kFirstBackoffMs = 100;
constexpr int kMaxBackoffMs = 3000;
constexpr int kReportAfterFailures = 4; // about 1.5 s of retries

QString firstLine(const QString& s)
{
    const qsizetype nl = s.indexOf(QLatin1Char('\n'));
    return nl < 0 ? s : s.left(nl) + QStringLiteral(" …");
}

QString commandOf(const client::ActivityEntry& e)
{
    return e.command ? *e.command : e.argv.join(QLatin1Char(' '));
}

QString endOf(const client::ActivityEntry& e)
{
    if (e.exitCode)
        return QStringLiteral("exit %1").arg(*e.exitCode);
    if (e.cancelled)
        return QStringLiteral("cancelled");
    if (e.error)
        return *e.error;
    return {};
}

} // namespace

ActivityListModel::ActivityListModel(QObject* parent) : QAbstractListModel(parent)
{
    m_retry.setSingleShot(true);
    connect(&m_retry, &QTimer::timeout, this, &ActivityListModel::follow);
}

void ActivityListModel::setApi(client::LizardApi* api)
{
    m_api = api;
    setSandbox(m_sandboxId);
}

void ActivityListModel::setSandbox(const QString& sandboxId)
{
    stopFollowing();
    beginResetModel();
    m_entries.clear();
    endResetModel();
    m_sandboxId = sandboxId;
    m_since = 0;
    m_backoffMs = 0;
    m_failures = 0;
    m_sandboxEnded = false;
    m_unavailable.clear();
    m_lastActive = {};
    follow();
}

void ActivityListModel::setActive(bool active)
{
    m_active = active;
    if (active)
        follow();
    else
        stopFollowing();
}

void ActivityListModel::follow()
{
    if (!m_active || !m_api || m_sandboxId.isEmpty() || m_stream || m_sandboxEnded ||
        !m_unavailable.isEmpty())
        return;
    m_retry.stop();
    m_stream = m_api->followActivity(m_sandboxId, m_since);
    m_stream->setParent(this);
    connect(m_stream, &client::ActivityStream::entries, this, &ActivityListModel::onBatch);
    connect(m_stream, &client::ActivityStream::ended, this, &ActivityListModel::onEnded);
    connect(m_stream, &client::ActivityStream::failed, this, &ActivityListModel::onFailed);
}

void ActivityListModel::dropStream()
{
    if (auto* stream = std::exchange(m_stream, nullptr)) {
        stream->disconnect(this);
        stream->cancel();
        stream->deleteLater();
    }
}

void ActivityListModel::stopFollowing()
{
    m_retry.stop();
    dropStream();
}

void ActivityListModel::retryLater()
{
    m_backoffMs = m_backoffMs == 0 ? kFirstBackoffMs : std::min(2 * m_backoffMs, kMaxBackoffMs);
    if (m_active)
        m_retry.start(m_backoffMs);
}

void ActivityListModel::onBatch(const client::ActivityPage& batch)
{
    m_reportedError = false;
    m_backoffMs = 0;
    m_failures = 0;
    // A stream starts after m_since, so every entry is new; the check keeps it so whatever a
    // server resends after a reconnect.
    const auto fresh = [this](const client::ActivityEntry& e) { return e.seq > m_since; };
    const auto count = std::count_if(batch.entries.begin(), batch.entries.end(), fresh);
    if (count == 0)
        return;
    // One insertion per batch: an agent's 50 execs a second cost the view one update a chunk.
    const int first = int(m_entries.size());
    const int last = first + int(count) - 1;
    beginInsertRows({}, first, last);
    for (const auto& e : batch.entries) {
        if (!fresh(e))
            continue;
        if ((e.kind == QLatin1String("exec") || e.kind == QLatin1String("runCode")) &&
            !e.housekeeping)
            m_lastActive = QDateTime::fromString(e.end, Qt::ISODateWithMs);
        if (e.kind == QLatin1String("kill"))
            m_sandboxEnded = true;
        m_since = e.seq;
        m_entries.push_back(e);
    }
    endInsertRows();
    emit entriesAppended(first, last);
}

void ActivityListModel::onEnded()
{
    dropStream();
    // Without the sandbox's `kill` entry the server, not the sandbox, ended (a clean shutdown).
    if (!m_sandboxEnded)
        retryLater();
}

void ActivityListModel::onFailed(const client::ApiError& e)
{
    dropStream();
    if (e.kind == client::ApiError::Kind::Cancelled)
        return;
    if (e.httpStatus == 404 && !m_entries.empty()) {
        m_sandboxEnded = true; // it had a log here and is gone now: what it did stays listed
        return;
    }
    if (e.httpStatus == 501 || e.httpStatus == 404) {
        m_unavailable = e.code == QStringLiteral("ACTIVITY_DISABLED")
                            ? tr("This lizard-local records no activity "
                                 "(it was started with --no-activity).")
                            : tr("Activity is recorded by lizard-local only.");
        emit unavailable(m_unavailable);
        return;
    }
    // A dropped connection is followed again at once and silently; a server that stays away
    // (a restart takes a moment) is said once, not at every retry.
    if (++m_failures >= kReportAfterFailures && !m_reportedError) {
        m_reportedError = true;
        emit errorOccurred(e);
    }
    retryLater();
}

int ActivityListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

QVariant ActivityListModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_entries.size()))
        return {};
    const client::ActivityEntry& e = m_entries[size_t(index.row())];
    const QString& kind = e.kind;
    switch (role) {
    case Qt::DisplayRole:
        return QDateTime::fromString(e.time, Qt::ISODateWithMs)
                   .toLocalTime()
                   .toString(QStringLiteral("HH:mm:ss")) +
               QStringLiteral("  ") + summary(e);
    case Qt::ToolTipRole:
        return e.time;
    case KindRole:
        return kind;
    case GroupRole:
        return int(groupOf(kind));
    case SeqRole:
        return e.seq;
    case HousekeepingRole:
        return e.housekeeping;
    case TimeRole:
        return QDateTime::fromString(e.time, Qt::ISODateWithMs);
    case ExitCodeRole:
        return e.exitCode ? QVariant(*e.exitCode) : QVariant();
    case SearchRole:
        return QStringList{summary(e),
                           e.code,
                           e.stdoutHead,
                           e.stderrHead,
                           e.stdoutTail.value_or(QString()),
                           e.stderrTail.value_or(QString())}
            .join(QLatin1Char('\n'));
    default:
        return {};
    }
}

ActivityListModel::Group ActivityListModel::groupOf(const QString& kind)
{
    if (kind == QStringLiteral("exec"))
        return Group::Command;
    if (kind == QStringLiteral("runCode"))
        return Group::Code;
    if (kind.startsWith(QStringLiteral("file")))
        return Group::File;
    return Group::Lifecycle;
}

QString ActivityListModel::summary(const client::ActivityEntry& e)
{
    const QString& kind = e.kind;
    if (kind == u"exec")
        return QStringLiteral("$ ") + firstLine(commandOf(e)) + QStringLiteral("   ") + endOf(e);
    if (kind == u"runCode") {
        const QString& where = e.context.isEmpty() ? e.language : e.context;
        return QStringLiteral("run [%1] ").arg(where) + firstLine(e.code) + QStringLiteral("   ") +
               endOf(e);
    }
    if (kind == u"fileWrite")
        return tr("wrote %1 (%2)").arg(e.path, formatBytes(e.size));
    if (kind == u"fileMove")
        return tr("moved %1 → %2").arg(e.from, e.to);
    if (kind == u"fileDelete")
        return tr("deleted %1").arg(e.path);
    if (kind == u"create")
        return tr("created (%1, %2)").arg(e.templateName, e.sizeName);
    if (kind == u"pause")
        return tr("paused");
    if (kind == u"resume")
        return tr("resumed");
    if (kind == u"snapshot")
        return tr("snapshot \"%1\"").arg(e.name);
    if (kind == u"fork")
        return tr("forked ×%1").arg(e.count);
    if (kind == u"expose")
        return tr("exposed port %1").arg(e.port);
    if (kind == u"unexpose")
        return tr("stopped exposing port %1").arg(e.port);
    if (kind == u"timeout")
        return tr("lifetime set: ends %1")
            .arg(QDateTime::fromString(e.endAt, Qt::ISODateWithMs)
                     .toLocalTime()
                     .toString(QStringLiteral("HH:mm:ss")));
    if (kind == u"kill")
        return tr("killed (%1)").arg(e.reason);
    if (kind == u"dropped")
        return tr("%1 older entries were dropped (the log is bounded)").arg(e.count);
    return kind;
}

} // namespace lizard::models
