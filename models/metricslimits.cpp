#include "models/metricslimits.h"

#include "models/sizeformat.h"

namespace lizard::models {

using client::MetricLimits;
using client::MetricSnapshot;

namespace {

double limitFractionOf(double used, double limit)
{
    if (!MetricSnapshot::known(used) || limit <= 0)
        return -1;
    return used / limit;
}

int limitPercent(double fraction)
{
    return int(fraction * 100.0 + 0.5);
}

} // namespace

double cpuFraction(const MetricSnapshot& latest, const MetricLimits& limits)
{
    return limitFractionOf(latest.cpu, limits.cpus);
}

double memoryFraction(const MetricSnapshot& latest, const MetricLimits& limits)
{
    if (limits.memoryKind != QLatin1String("cgroup"))
        return -1;
    return limitFractionOf(latest.memory, double(limits.memoryMb) * 1024 * 1024);
}

double diskFraction(const MetricSnapshot& latest, const MetricLimits& limits)
{
    return limitFractionOf(latest.disk, double(limits.diskGb) * 1024 * 1024 * 1024);
}

QStringList nearLimitWarnings(const MetricSnapshot& latest, const MetricLimits& limits)
{
    QStringList out;
    if (latest.t <= 0)
        return out;
    if (const double m = memoryFraction(latest, limits); m >= kNearLimitFraction)
        out << QStringLiteral("Memory at %1 % of its %2 limit: the kernel kills a process when "
                              "it is full")
                   .arg(limitPercent(m))
                   .arg(formatBytes(limits.memoryMb * 1024 * 1024));
    if (const double d = diskFraction(latest, limits); d >= kNearLimitFraction)
        out << QStringLiteral("Disk at %1 % of its %2 GB: writes fail when it is full")
                   .arg(limitPercent(d))
                   .arg(limits.diskGb);
    if (MetricSnapshot::known(latest.pids) && limits.pids > 0 && latest.pids >= double(limits.pids))
        out << QStringLiteral("Processes at the limit (%1 of %2): new processes and threads "
                              "cannot start")
                   .arg(qint64(latest.pids))
                   .arg(limits.pids);
    return out;
}

QString formatCores(double cores)
{
    if (!MetricSnapshot::known(cores))
        return QStringLiteral("–");
    if (cores < 0.995 || cores > 1.005)
        return QStringLiteral("%1 cores").arg(cores, 0, 'f', cores < 10 ? 2 : 1);
    return QStringLiteral("1.00 core");
}

QString formatRate(double bytesPerSecond)
{
    if (!MetricSnapshot::known(bytesPerSecond))
        return QStringLiteral("–");
    return formatBytes(qint64(bytesPerSecond + 0.5)) + QStringLiteral("/s");
}

} // namespace lizard::models
