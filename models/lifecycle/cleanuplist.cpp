#include "models/lifecycle/cleanuplist.h"

#include "client/lizardapi.h"
#include "models/timeformat.h"

#include <QLocale>
#include <algorithm>
#include <memory>

namespace lizard::models {

namespace {

// What each size holds when the server does not say (the cloud's sizes; lizard-local sends
// cpus and memoryMb only where something bounds them).
struct CleanupSize
{
    const char* name;
    double cpus;
    int memoryMb;
};
constexpr CleanupSize kCleanupSizes[] = {{"nano", 0.5, 1024}, {"mini", 1, 2048},
                                         {"small", 2, 4096},  {"medium", 4, 8192},
                                         {"large", 8, 16384}, {"big", 16, 32768}};

double cpusOf(const client::SandboxInfo& s)
{
    if (s.cpus > 0)
        return s.cpus;
    for (const auto& size : kCleanupSizes)
        if (s.size == QLatin1String(size.name))
            return size.cpus;
    return 0;
}

int memoryMbOf(const client::SandboxInfo& s)
{
    if (s.memoryMb > 0)
        return s.memoryMb;
    for (const auto& size : kCleanupSizes)
        if (s.size == QLatin1String(size.name))
            return size.memoryMb;
    return 0;
}

QString gbText(int mb)
{
    return QLocale::c().toString(mb / 1024.0, 'g', 3) + QStringLiteral(" GB");
}

} // namespace

QString formatSandboxAge(const QDateTime& since, const QDateTime& now)
{
    if (!since.isValid())
        return {};
    const qint64 s = std::max<qint64>(0, since.secsTo(now));
    if (s < 60)
        return QStringLiteral("%1 s").arg(s);
    if (s < 3600)
        return QStringLiteral("%1 min").arg(s / 60);
    if (s < 86400)
        return QStringLiteral("%1 h %2 min")
            .arg(s / 3600)
            .arg((s % 3600) / 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1 d %2 h").arg(s / 86400).arg((s % 86400) / 3600);
}

CleanupListModel::CleanupListModel(client::LizardApi* api, QObject* parent)
    : QAbstractTableModel(parent), m_api(api),
      m_clock([] { return QDateTime::currentDateTimeUtc(); })
{
}

void CleanupListModel::refresh()
{
    if (m_loading)
        return;
    if (!m_api) {
        emit failed(client::ApiError::notConnected(QStringLiteral("List sandboxes")));
        return;
    }
    m_loading = true;
    m_api->listProjects(this, [this](client::Outcome<QList<client::Project>> outcome) {
        // Without names the ids still say which project: not a reason to show nothing.
        if (outcome) {
            m_projectNames.clear();
            for (const client::Project& p : outcome.value())
                m_projectNames.insert(p.id, p.name);
        }
        listSandboxes();
    });
}

void CleanupListModel::listSandboxes()
{
    if (!m_api) {
        m_loading = false;
        return;
    }
    m_api->listSandboxes({}, this, [this](client::Outcome<QList<client::SandboxInfo>> outcome) {
        m_loading = false;
        if (!outcome) {
            emit failed(outcome.error());
            return;
        }
        QList<client::SandboxInfo> rows;
        for (const client::SandboxInfo& s : outcome.value())
            if (s.status == QStringLiteral("running") || s.status == QStringLiteral("paused"))
                rows << s;
        std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
            return a.startedAt != b.startedAt ? a.startedAt < b.startedAt
                                              : a.sandboxId < b.sandboxId;
        });
        beginResetModel();
        m_rows = rows;
        endResetModel();
        emit refreshed();
    });
}

QString CleanupListModel::summary() const
{
    if (m_rows.isEmpty())
        return QStringLiteral("Nothing is left running or paused.");
    int paused = 0;
    double cpus = 0;
    int memoryMb = 0;
    for (const client::SandboxInfo& s : m_rows) {
        paused += s.status == QStringLiteral("paused") ? 1 : 0;
        cpus += cpusOf(s);
        memoryMb += memoryMbOf(s);
    }
    return QStringLiteral("%1 left (%2 running, %3 paused), holding %4 vCPU and %5 of memory")
        .arg(m_rows.size())
        .arg(m_rows.size() - paused)
        .arg(paused)
        .arg(QLocale::c().toString(cpus, 'g', 4))
        .arg(gbText(memoryMb));
}

QString CleanupListModel::sizeText(const client::SandboxInfo& s) const
{
    QStringList parts;
    if (!s.size.isEmpty())
        parts << s.size;
    if (const double cpus = cpusOf(s); cpus > 0)
        parts << QLocale::c().toString(cpus, 'g', 3) + QStringLiteral(" vCPU");
    if (const int mb = memoryMbOf(s); mb > 0)
        parts << gbText(mb);
    if (s.diskGb > 0)
        parts << QStringLiteral("disk %1 GB").arg(s.diskGb);
    return parts.join(QStringLiteral(" · "));
}

void CleanupListModel::kill(const QStringList& sandboxIds)
{
    if (!m_api || sandboxIds.isEmpty()) {
        emit killed(0, sandboxIds.isEmpty() ? QStringList() : QStringList{"not connected"});
        return;
    }
    struct Tally
    {
        int left = 0;
        int killed = 0;
        QStringList failures;
    };
    auto tally = std::make_shared<Tally>();
    tally->left = int(sandboxIds.size());
    for (const QString& id : sandboxIds) {
        m_api->killSandbox(id, this, [this, tally](client::Outcome<client::Unit> outcome) {
            if (outcome)
                ++tally->killed;
            else if (outcome.error().kind != client::ApiError::Kind::NotFound) // gone already
                tally->failures << outcome.error().toDisplayString();
            if (--tally->left > 0)
                return;
            emit killed(tally->killed, tally->failures);
            refresh();
        });
    }
}

int CleanupListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int CleanupListModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : EndsColumn + 1;
}

QVariant CleanupListModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const client::SandboxInfo& s = m_rows.at(index.row());
    if (role == SandboxIdRole)
        return s.sandboxId;
    if (role == StartedAtRole)
        return s.startedAt;
    const QDateTime now = m_clock();
    if (role == Qt::ToolTipRole) {
        if (index.column() == AgeColumn && s.startedAt.isValid())
            return QStringLiteral("Started %1")
                .arg(QLocale().toString(s.startedAt.toLocalTime(), QLocale::LongFormat));
        if (index.column() == EndsColumn && s.endAt.isValid())
            return QLocale().toString(s.endAt.toLocalTime(), QLocale::LongFormat);
        return {};
    }
    if (role == Qt::TextAlignmentRole && index.column() == AgeColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case SandboxColumn:
        return s.sandboxId;
    case ProjectColumn:
        return m_projectNames.value(s.projectId, s.projectId);
    case StatusColumn:
        if (s.status == QStringLiteral("paused") && !s.pausedBy.isEmpty())
            return QStringLiteral("paused (%1)")
                .arg(s.pausedBy == QStringLiteral("user") ? QStringLiteral("by you") : s.pausedBy);
        return s.status;
    case AgeColumn:
        return formatSandboxAge(s.startedAt, now);
    case SizeColumn:
        return sizeText(s);
    case EndsColumn:
        return formatTimeLeft(s.endAt, now);
    default:
        return {};
    }
}

QVariant CleanupListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SandboxColumn:
        return QStringLiteral("Sandbox");
    case ProjectColumn:
        return QStringLiteral("Project");
    case StatusColumn:
        return QStringLiteral("Status");
    case AgeColumn:
        return QStringLiteral("Age");
    case SizeColumn:
        return QStringLiteral("Size");
    case EndsColumn:
        return QStringLiteral("Ends in");
    default:
        return {};
    }
}

} // namespace lizard::models
