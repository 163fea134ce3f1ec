// ApiError's functions (declared in types.h).
#include "client/types.h"

namespace lizard::client {

QString ApiError::toDisplayString() const
{
    const QString prefix = what.isEmpty() ? QString() : what + QLatin1Char(' ');
    switch (kind) {
    case Kind::Cancelled:
        return what.isEmpty() ? QStringLiteral("Cancelled")
                              : prefix + QStringLiteral("was cancelled");
    case Kind::Network:
        // A refused certificate is no network trouble, and its message says so in full.
        if (code.startsWith(QLatin1String("CERTIFICATE_")) ||
            code == QLatin1String("CA_FILE_UNUSABLE") ||
            code == QLatin1String("TLS_HANDSHAKE_FAILED"))
            return prefix + QStringLiteral("failed: ") + message;
        return prefix + QStringLiteral("failed: network error: ") + message;
    case Kind::Protocol:
        return prefix + QStringLiteral("failed: unexpected answer: ") + message;
    default:
        break;
    }
    QString text = prefix + QStringLiteral("failed: ");
    if (httpStatus > 0)
        text += QString::number(httpStatus) + QLatin1Char(' ');
    if (!code.isEmpty())
        text += code + QStringLiteral(": ");
    text += message.isEmpty() ? QStringLiteral("no details") : message;
    if (kind == Kind::RateLimit && retryAfterS >= 0)
        text += QStringLiteral(" (retry in %1 s)").arg(retryAfterS);
    if (what.isEmpty())
        text[0] = text[0].toUpper();
    return text;
}

ApiError ApiError::notConnected(const QString& what)
{
    ApiError e;
    e.kind = Kind::Network;
    e.message = QStringLiteral("not connected");
    e.what = what;
    return e;
}

} // namespace lizard::client
