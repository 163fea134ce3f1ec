#include "models/activity/activitylistmodel.h"

#include "client/lizardapi.h"
#include "models/sizeformat.h"

#include <QDateTime>

namespace lizard::models {

namespace {

constexpr int kPageLimit = 500;

QString text(const nlohmann::json& j, const char* key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                            : QString();
}

QString firstLine(const QString& s)
{
    const qsizetype nl = s.indexOf(QLatin1Char('\n'));
    return nl < 0 ? s : s.left(nl) + QStringLiteral(" …");
}

QString commandOf(const nlohmann::json& e)
{
    if (e.contains("command"))
        return text(e, "command");
    QStringList argv;
    for (const auto& a : e.value("argv", nlohmann::json::array()))
        if (a.is_string())
            argv << QString::fromStdString(a.get<std::string>());
    return argv.join(QLatin1Char(' '));
}

QString endOf(const nlohmann::json& e)
{
    if (e.contains("exitCode"))
        return QStringLiteral("exit %1").arg(e.value("exitCode", 0));
    if (e.value("cancelled", false))
        return QStringLiteral("cancelled");
    if (e.contains("error"))
        return text(e, "error");
    return {};
}

} // namespace

ActivityListModel::ActivityListModel(QObject* parent) : QAbstractListModel(parent)
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &ActivityListModel::poll);
}

void ActivityListModel::setApi(client::LizardApi* api)
{
    m_api = api;
    setSandbox(m_sandboxId);
}

void ActivityListModel::setSandbox(const QString& sandboxId)
{
    if (m_call)
        m_call->cancel();
    m_inFlight = false;
    m_timer.stop();
    beginResetModel();
    m_entries.clear();
    endResetModel();
    m_sandboxId = sandboxId;
    m_since = 0;
    m_unavailable.clear();
    m_lastActive = {};
    m_reportedError = false;
    if (m_active)
        schedule(0);
}

void ActivityListModel::setActive(bool active)
{
    m_active = active;
    if (active)
        schedule(0);
    else
        m_timer.stop();
}

void ActivityListModel::schedule(int ms)
{
    if (m_active && !m_inFlight && m_api && !m_sandboxId.isEmpty() && m_unavailable.isEmpty())
        m_timer.start(ms);
}

void ActivityListModel::poll()
{
    if (!m_api || m_sandboxId.isEmpty() || m_inFlight || !m_unavailable.isEmpty())
        return;
    m_inFlight = true;
    const QString id = m_sandboxId;
    m_call = m_api->activity(
        id, m_since, kPageLimit, this, [this, id](client::Outcome<client::ActivityPage> r) {
            m_inFlight = false;
            if (id != m_sandboxId)
                return schedule(0); // the sandbox changed meanwhile
            if (r)
                return onPage(id, std::move(r.value()));
            const client::ApiError& e = r.error();
            if (e.kind == client::ApiError::Kind::Cancelled)
                return;
            if (e.httpStatus == 501 || e.httpStatus == 404) {
                m_unavailable = e.code == QStringLiteral("ACTIVITY_DISABLED")
                                    ? tr("This lizard-local records no activity "
                                         "(it was started with --no-activity).")
                                    : tr("Activity is recorded by lizard-local only.");
                emit unavailable(m_unavailable);
                return;
            }
            if (!m_reportedError) {
                m_reportedError = true; // once, not every retry
                emit errorOccurred(e);
            }
            schedule(2000);
        });
}

void ActivityListModel::onPage(const QString&, client::ActivityPage page)
{
    m_reportedError = false;
    if (!page.entries.empty()) {
        // One insertion per answer: an agent's 50 execs a second cost the view one update.
        const int first = int(m_entries.size());
        const int last = first + int(page.entries.size()) - 1;
        beginInsertRows({}, first, last);
        for (auto& e : page.entries) {
            const std::string kind = e.value("kind", std::string());
            if ((kind == "exec" || kind == "runCode") && !e.value("housekeeping", false))
                m_lastActive = QDateTime::fromString(text(e, "end"), Qt::ISODateWithMs);
            m_entries.push_back(std::move(e));
        }
        endInsertRows();
        emit entriesAppended(first, last);
    }
    m_since = std::max(m_since, page.lastSeq);
    schedule(page.more ? 0 : m_interval);
}

int ActivityListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

QVariant ActivityListModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_entries.size()))
        return {};
    const nlohmann::json& e = m_entries[size_t(index.row())];
    const QString kind = text(e, "kind");
    switch (role) {
    case Qt::DisplayRole:
        return QDateTime::fromString(text(e, "time"), Qt::ISODateWithMs)
                   .toLocalTime()
                   .toString(QStringLiteral("HH:mm:ss")) +
               QStringLiteral("  ") + summary(e);
    case Qt::ToolTipRole:
        return text(e, "time");
    case KindRole:
        return kind;
    case GroupRole:
        return int(groupOf(kind));
    case SeqRole:
        return qint64(e.value("seq", uint64_t(0)));
    case HousekeepingRole:
        return e.value("housekeeping", false);
    case TimeRole:
        return QDateTime::fromString(text(e, "time"), Qt::ISODateWithMs);
    case ExitCodeRole:
        return e.contains("exitCode") ? QVariant(e.value("exitCode", 0)) : QVariant();
    case SearchRole:
        return summary(e) + QLatin1Char('\n') + text(e, "code") + QLatin1Char('\n') +
               text(e, "stdoutHead") + QLatin1Char('\n') + text(e, "stderrHead") +
               QLatin1Char('\n') + text(e, "stdoutTail") + QLatin1Char('\n') +
               text(e, "stderrTail");
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

QString ActivityListModel::summary(const nlohmann::json& e)
{
    const std::string kind = e.value("kind", std::string());
    if (kind == "exec")
        return QStringLiteral("$ ") + firstLine(commandOf(e)) + QStringLiteral("   ") + endOf(e);
    if (kind == "runCode") {
        const QString where = e.contains("context") ? text(e, "context") : text(e, "language");
        return QStringLiteral("run [%1] ").arg(where) + firstLine(text(e, "code")) +
               QStringLiteral("   ") + endOf(e);
    }
    if (kind == "fileWrite")
        return tr("wrote %1 (%2)").arg(text(e, "path"), formatBytes(e.value("size", qint64(0))));
    if (kind == "fileMove")
        return tr("moved %1 → %2").arg(text(e, "from"), text(e, "to"));
    if (kind == "fileDelete")
        return tr("deleted %1").arg(text(e, "path"));
    if (kind == "create")
        return tr("created (%1, %2)").arg(text(e, "template"), text(e, "size"));
    if (kind == "pause")
        return tr("paused");
    if (kind == "resume")
        return tr("resumed");
    if (kind == "snapshot")
        return tr("snapshot \"%1\"").arg(text(e, "name"));
    if (kind == "fork")
        return tr("forked ×%1").arg(e.value("count", 0));
    if (kind == "expose")
        return tr("exposed port %1").arg(e.value("port", 0));
    if (kind == "unexpose")
        return tr("stopped exposing port %1").arg(e.value("port", 0));
    if (kind == "timeout")
        return tr("lifetime set: ends %1")
            .arg(QDateTime::fromString(text(e, "endAt"), Qt::ISODateWithMs)
                     .toLocalTime()
                     .toString(QStringLiteral("HH:mm:ss")));
    if (kind == "kill")
        return tr("killed (%1)").arg(text(e, "reason"));
    if (kind == "dropped")
        return tr("%1 older entries were dropped (the log is bounded)").arg(e.value("count", 0));
    return QString::fromStdString(kind);
}

} // namespace lizard::models
