#include "models/sandboxstaterules.h"

namespace lizard::models {

bool sandboxActionAllowed(SandboxAction action, const QString& status, bool busy)
{
    if (action == SandboxAction::Kill)
        return true;
    if (busy)
        return false;
    const bool running = status.isEmpty() || status == QLatin1String("running");
    const bool paused = status == QLatin1String("paused");
    switch (action) {
    case SandboxAction::Pause:
    case SandboxAction::Fork:
        return running;
    case SandboxAction::Extend:
        return running || paused;
    case SandboxAction::Resume:
        return paused;
    case SandboxAction::Snapshot:
        return running || paused;
    case SandboxAction::Kill:
        return true;
    }
    return false;
}

client::ApiError withLimitDetails(client::ApiError error)
{
    if (error.kind != client::ApiError::Kind::RateLimit || (error.limit < 0 && error.running < 0))
        return error;
    QStringList parts;
    if (error.limit >= 0)
        parts << QStringLiteral("limit %1").arg(error.limit);
    if (error.running >= 0)
        parts << QStringLiteral("%1 running").arg(error.running);
    const QString details = parts.join(QStringLiteral(", "));
    error.message =
        error.message.isEmpty() ? details : error.message + QStringLiteral(" [") + details + ']';
    return error;
}

QString forkFailureText(const client::ForkEntry& entry)
{
    client::ApiError error;
    error.kind = entry.httpStatus == 429 ? client::ApiError::Kind::RateLimit
                                         : client::ApiError::Kind::Server;
    error.message = entry.error;
    error.limit = entry.limit;
    error.running = entry.running;
    QString text = withLimitDetails(error).message;
    if (!entry.code.isEmpty())
        text = entry.code + QStringLiteral(": ") + text;
    if (entry.retryAfterS >= 0)
        text += QStringLiteral(" (retry in %1 s)").arg(entry.retryAfterS);
    return text;
}

} // namespace lizard::models
