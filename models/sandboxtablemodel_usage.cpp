// SandboxTableModel: the latest metrics of the project's sandboxes (CPU and Memory columns, and
// the limits a sandbox is near), from lizard-local's project metrics, fetched with each poll.
#include "client/lizardapi.h"
#include "models/metricslimits.h"
#include "models/sandboxrow.h"
#include "models/sandboxtablemodel.h"
#include "models/sizeformat.h"

#include <QStringList>

namespace lizard::models {

using client::ProjectSandboxMetrics;

void SandboxTableModel::fetchUsage(const QString& projectId)
{
    if (m_usageUnsupported || m_usageCall)
        return;
    m_usageCall = api()->projectMetrics(
        projectId, this, [this, projectId](client::Outcome<client::ProjectMetrics> o) {
            m_usageCall = nullptr;
            if (projectId != this->projectId())
                return; // another project meanwhile
            if (!o.ok()) {
                // A 404 without the API's NOT_FOUND code: this server has no metrics (the cloud).
                if (o.error().httpStatus == 404 && o.error().code != QLatin1String("NOT_FOUND"))
                    m_usageUnsupported = true;
                return; // the list's own poll reports what is wrong with the server
            }
            applyUsage(o.value());
        });
}

void SandboxTableModel::applyUsage(const client::ProjectMetrics& metrics)
{
    QHash<QString, ProjectSandboxMetrics> fresh;
    for (const ProjectSandboxMetrics& s : metrics.sandboxes)
        fresh.insert(s.sandboxId, s);
    m_usage = std::move(fresh);
    if (!m_rows.isEmpty())
        emit dataChanged(index(0, SandboxColumn::Cpu),
                         index(int(m_rows.size()) - 1, SandboxColumn::Memory),
                         {Qt::DisplayRole, Qt::ToolTipRole, UsageRole, NearLimitRole});
}

const ProjectSandboxMetrics* SandboxTableModel::usage(const QString& sandboxId) const
{
    const auto it = m_usage.constFind(sandboxId);
    return it == m_usage.constEnd() ? nullptr : &*it;
}

QVariant SandboxTableModel::usageData(const client::SandboxInfo& info, int column, int role) const
{
    const ProjectSandboxMetrics* u = usage(info.sandboxId);
    if (role == NearLimitRole)
        return u ? nearLimitWarnings(u->latest, u->limits) : QStringList();
    const bool cpu = column == SandboxColumn::Cpu;
    if (column != SandboxColumn::Cpu && column != SandboxColumn::Memory)
        return {};
    const bool paused = info.status == QLatin1String("paused");
    if (u == nullptr || u->latest.t <= 0) {
        if (role == UsageRole)
            return -1.0;
        return role == Qt::ToolTipRole ? QVariant(QStringLiteral("No figures yet")) : QVariant();
    }
    const client::MetricSnapshot& l = u->latest;
    if (role == UsageRole) {
        if (cpu) {
            if (paused || !client::MetricSnapshot::known(l.cpu))
                return paused ? 0.0 : -1.0;
            const double f = cpuFraction(l, u->limits);
            return f >= 0 ? f : qMin(1.0, l.cpu); // not limited: the bar is one core
        }
        const double f = memoryFraction(l, u->limits);
        if (f >= 0 || !client::MetricSnapshot::known(l.memory) || u->limits.memoryMb <= 0)
            return f;
        // Bounded per process: the bar is against that bound, the warning is not (metricslimits.h).
        return l.memory / (double(u->limits.memoryMb) * 1024 * 1024);
    }
    if (cpu) {
        const QString used = paused ? QStringLiteral("0 cores") : formatCores(l.cpu);
        if (role == Qt::DisplayRole)
            return used;
        return u->limits.cpus > 0 ? QStringLiteral("%1 of %2 vCPU").arg(used).arg(u->limits.cpus)
                                  : QStringLiteral("%1 (CPU not limited)").arg(used);
    }
    if (!client::MetricSnapshot::known(l.memory))
        return role == Qt::DisplayRole ? QStringLiteral("–") : QStringLiteral("Memory not known");
    const QString used = formatBytes(qint64(l.memory));
    if (role == Qt::DisplayRole)
        return used;
    QString tip = used;
    if (u->limits.memoryMb > 0)
        tip += u->limits.memoryKind == QLatin1String("cgroup")
                   ? QStringLiteral(" of %1").arg(formatBytes(u->limits.memoryMb * 1024 * 1024))
                   : QStringLiteral(" (each process may use %1)")
                         .arg(formatBytes(u->limits.memoryMb * 1024 * 1024));
    const QStringList near = nearLimitWarnings(l, u->limits);
    if (!near.isEmpty())
        tip += QLatin1Char('\n') + near.join(QLatin1Char('\n'));
    return tip;
}

} // namespace lizard::models
