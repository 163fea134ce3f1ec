#include "models/sandboxrow.h"

#include "models/timeformat.h"

#include <QStringList>

namespace lizard::models {

QString sandboxColumnTitle(int column)
{
    switch (column) {
    case SandboxColumn::Id:
        return QStringLiteral("ID");
    case SandboxColumn::Template:
        return QStringLiteral("Template");
    case SandboxColumn::Size:
        return QStringLiteral("Size");
    case SandboxColumn::Status:
        return QStringLiteral("Status");
    case SandboxColumn::Started:
        return QStringLiteral("Started");
    case SandboxColumn::TimeLeft:
        return QStringLiteral("Time left");
    case SandboxColumn::Cpu:
        return QStringLiteral("CPU");
    case SandboxColumn::Memory:
        return QStringLiteral("Memory");
    case SandboxColumn::Metadata:
        return QStringLiteral("Metadata");
    default:
        return {};
    }
}

namespace {

QString memoryText(int mb)
{
    return mb % 1024 == 0 ? QStringLiteral("%1 GB").arg(mb / 1024)
                          : QStringLiteral("%1 MB").arg(mb);
}

} // namespace

namespace {

// " · Disk: 10 GB", " · Disk: 10 GB (watched)" (lizard-local as an ordinary user) or, while
// a watched layer is over its size, " · Disk: 10 GB (full)"; empty when not bounded.
QString diskText(const client::SandboxInfo& info)
{
    if (info.diskGb <= 0)
        return {};
    const QString how = info.diskEnforcedBy != QLatin1String("watch") ? QString()
                        : info.diskOver                               ? QStringLiteral(" (full)")
                                        : QStringLiteral(" (watched)");
    return QStringLiteral(" · Disk: %1 GB%2").arg(info.diskGb).arg(how);
}

QString diskToolTip(const client::SandboxInfo& info)
{
    if (info.diskGb <= 0)
        return {};
    if (info.diskEnforcedBy == QLatin1String("watch"))
        return QStringLiteral(" Disk: %1 GB, watched: the server measures the sandbox's files "
                              "every 2 s and, once they pass the size, files may no longer grow "
                              "(a few seconds of writes may pass it first).%2")
            .arg(info.diskGb)
            .arg(info.diskOver ? QStringLiteral(" It is over its size now: delete files to "
                                                "write again.")
                               : QString());
    return QStringLiteral(" Disk: %1 GB, its own file system.").arg(info.diskGb);
}

// " · only pypi.org", " · only 3 hosts" (an allow-list), " · no network"; empty with the
// default, internet access.
QString networkText(const client::SandboxInfo& info)
{
    if (!info.allowedHosts.isEmpty())
        return info.allowedHosts.size() == 1
                   ? QStringLiteral(" · only %1").arg(info.allowedHosts.first())
                   : QStringLiteral(" · only %1 hosts").arg(info.allowedHosts.size());
    return info.internetAccess ? QString() : QStringLiteral(" · no network");
}

QString networkToolTip(const client::SandboxInfo& info)
{
    if (!info.allowedHosts.isEmpty())
        return QStringLiteral(" Network: only %1 (names on ports 80 and 443, addresses and ranges "
                              "on every port); nothing else.")
            .arg(info.allowedHosts.join(QStringLiteral(", ")));
    return info.internetAccess ? QString() : QStringLiteral(" Network: none.");
}

} // namespace

QString sandboxSizeText(const client::SandboxInfo& info)
{
    return sandboxLimitsText(info) + diskText(info) + networkText(info);
}

QString sandboxLimitsText(const client::SandboxInfo& info)
{
    const QString size = info.size.isEmpty() ? QStringLiteral("default") : info.size;
    const QString pids =
        info.pidsLimit > 0 ? QStringLiteral(" · %1 pids").arg(info.pidsLimit) : QString();
    if (info.limitsEnforcedBy == QLatin1String("rlimit"))
        return QStringLiteral("%1%2 · %3 per process · cpu not limited")
            .arg(size, pids, memoryText(info.processMemoryMb));
    if (info.limitsEnforcedBy == QLatin1String("none") || (info.cpus <= 0 && info.memoryMb <= 0))
        return size + QStringLiteral(" · limits not enforced");
    return QStringLiteral("%1 · %2 vCPU · %3%4")
        .arg(size)
        .arg(info.cpus)
        .arg(memoryText(info.memoryMb), pids);
}

QString sandboxLimitsToolTip(const client::SandboxInfo& info)
{
    return sandboxProcessLimitsToolTip(info) + diskToolTip(info) + networkToolTip(info);
}

QString sandboxProcessLimitsToolTip(const client::SandboxInfo& info)
{
    if (info.limitsEnforcedBy == QLatin1String("cgroup"))
        return QStringLiteral("Enforced by cgroups for the whole sandbox: %1 CPUs, %2 of memory, "
                              "%3 processes.")
            .arg(info.cpus)
            .arg(memoryText(info.memoryMb))
            .arg(info.pidsLimit);
    if (info.limitsEnforcedBy == QLatin1String("rlimit"))
        return QStringLiteral(
                   "cgroups are not writable on this host: the kernel bounds the sandbox to %1 "
                   "processes and each process to %2 of memory (rlimits); its CPU use and its "
                   "memory as a whole are not limited.")
            .arg(info.pidsLimit)
            .arg(memoryText(info.processMemoryMb));
    if (info.limitsEnforcedBy == QLatin1String("none") || (info.cpus <= 0 && info.memoryMb <= 0))
        return QStringLiteral("No limits: cgroups are not writable on this host.");
    return QStringLiteral("%1 CPUs, %2 of memory.").arg(info.cpus).arg(memoryText(info.memoryMb));
}

QString sandboxCellText(const client::SandboxInfo& info, int column, const QDateTime& now)
{
    switch (column) {
    case SandboxColumn::Id:
        return info.sandboxId;
    case SandboxColumn::Template:
        return info.templateName;
    case SandboxColumn::Size:
        return sandboxSizeText(info);
    case SandboxColumn::Status: {
        QString s = info.status.isEmpty() ? QStringLiteral("running") : info.status;
        if (info.pauseError && !info.pauseError->isEmpty())
            s += QStringLiteral(" (pause failed: %1)").arg(*info.pauseError);
        return s;
    }
    case SandboxColumn::Started:
        return formatAgo(info.startedAt, now);
    case SandboxColumn::TimeLeft:
        return formatTimeLeft(info.endAt, now);
    case SandboxColumn::Metadata: {
        QStringList parts;
        for (auto it = info.metadata.cbegin(); it != info.metadata.cend(); ++it)
            parts << it.key() + QLatin1Char('=') + it.value();
        return parts.join(QStringLiteral(", "));
    }
    default:
        return {};
    }
}

QString sandboxBadge(const client::SandboxInfo& info, const QDateTime& now)
{
    const QString status = info.status.isEmpty() ? QStringLiteral("running") : info.status;
    if (status == u"running")
        return info.endAt.isValid() && now.secsTo(info.endAt) <= kEndingSoonS
                   ? QStringLiteral("ending")
                   : QStringLiteral("running");
    return status == u"paused" ? QStringLiteral("paused") : QStringLiteral("other");
}

QString sandboxTimeToolTip(const client::SandboxInfo& info, int column)
{
    if (column == SandboxColumn::Started && info.startedAt.isValid())
        return QStringLiteral("Started %1").arg(formatAbsolute(info.startedAt));
    if (column == SandboxColumn::TimeLeft)
        return info.endAt.isValid() ? QStringLiteral("Ends %1").arg(formatAbsolute(info.endAt))
                                    : QStringLiteral("No deadline: it runs until killed");
    return {};
}

bool sandboxRowDiffers(const client::SandboxInfo& a, const client::SandboxInfo& b)
{
    return a.templateName != b.templateName || a.size != b.size || a.status != b.status ||
           a.startedAt != b.startedAt || a.endAt != b.endAt || a.metadata != b.metadata ||
           a.cpus != b.cpus || a.memoryMb != b.memoryMb || a.pauseError != b.pauseError ||
           a.limitsEnforcedBy != b.limitsEnforcedBy || a.pidsLimit != b.pidsLimit ||
           a.processMemoryMb != b.processMemoryMb || a.internetAccess != b.internetAccess ||
           a.diskGb != b.diskGb || a.diskEnforcedBy != b.diskEnforcedBy ||
           a.diskOver != b.diskOver || a.projectId != b.projectId ||
           a.allowedHosts != b.allowedHosts;
}

} // namespace lizard::models
