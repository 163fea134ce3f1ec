#include "models/sandboxrow.h"

#include "models/timeformat.h"

#include <QStringList>

namespace lizard::models {

QString sandboxColumnTitle(int column)
{
    switch (column) {
    case SandboxColumn::Id: return QStringLiteral("ID");
    case SandboxColumn::Template: return QStringLiteral("Template");
    case SandboxColumn::Size: return QStringLiteral("Size");
    case SandboxColumn::Status: return QStringLiteral("Status");
    case SandboxColumn::Started: return QStringLiteral("Started");
    case SandboxColumn::TimeLeft: return QStringLiteral("Time left");
    case SandboxColumn::Metadata: return QStringLiteral("Metadata");
    default: return {};
    }
}

QString sandboxSizeText(const client::SandboxInfo& info)
{
    const QString size = info.size.isEmpty() ? QStringLiteral("default") : info.size;
    if (info.cpus <= 0 && info.memoryMb <= 0)
        return size + QStringLiteral(" · limits not enforced");
    const QString mem = info.memoryMb % 1024 == 0 ? QStringLiteral("%1 GB").arg(info.memoryMb / 1024)
                                                  : QStringLiteral("%1 MB").arg(info.memoryMb);
    return QStringLiteral("%1 · %2 vCPU · %3").arg(size).arg(info.cpus).arg(mem);
}

QString sandboxCellText(const client::SandboxInfo& info, int column, const QDateTime& now)
{
    switch (column) {
    case SandboxColumn::Id: return info.sandboxId;
    case SandboxColumn::Template: return info.templateName;
    case SandboxColumn::Size: return sandboxSizeText(info);
    case SandboxColumn::Status: {
        QString s = info.status.isEmpty() ? QStringLiteral("running") : info.status;
        if (info.pauseError && !info.pauseError->isEmpty())
            s += QStringLiteral(" (pause failed: %1)").arg(*info.pauseError);
        return s;
    }
    case SandboxColumn::Started: return formatStarted(info.startedAt, now);
    case SandboxColumn::TimeLeft: return formatTimeLeft(info.endAt, now);
    case SandboxColumn::Metadata: {
        QStringList parts;
        for (auto it = info.metadata.cbegin(); it != info.metadata.cend(); ++it)
            parts << it.key() + QLatin1Char('=') + it.value();
        return parts.join(QStringLiteral(", "));
    }
    default: return {};
    }
}

bool sandboxRowDiffers(const client::SandboxInfo& a, const client::SandboxInfo& b)
{
    return a.templateName != b.templateName || a.size != b.size || a.status != b.status ||
           a.startedAt != b.startedAt || a.endAt != b.endAt || a.metadata != b.metadata ||
           a.cpus != b.cpus || a.memoryMb != b.memoryMb || a.pauseError != b.pauseError ||
           a.internetAccess != b.internetAccess || a.projectId != b.projectId;
}

} // namespace lizard::models
