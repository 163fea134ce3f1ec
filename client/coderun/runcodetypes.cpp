#include "client/coderun/runcodetypes.h"

namespace lizard::client {

QString Execution::text() const
{
    for (const ExecutionResult& r : results)
        if (!r.isDisplay)
            return r.bundle.value(QStringLiteral("text/plain"));
    return {};
}

QList<ExecutionResult> Execution::resultsWith(const QString& mime) const
{
    QList<ExecutionResult> out;
    for (const ExecutionResult& r : results)
        if (r.bundle.contains(mime))
            out.append(r);
    return out;
}

QString kernelStateName(KernelState state)
{
    switch (state) {
    case KernelState::Unknown:
        return QStringLiteral("unknown");
    case KernelState::Starting:
        return QStringLiteral("starting");
    case KernelState::Idle:
        return QStringLiteral("idle");
    case KernelState::Busy:
        return QStringLiteral("busy");
    case KernelState::Dead:
        return QStringLiteral("dead");
    }
    return {};
}

} // namespace lizard::client
