#include "client/errormapping.h"

#include <QDateTime>
#include <QRegularExpression>
#include <cmath>
#include <curl/curl.h>
#include <nlohmann/json.hpp>

namespace lizard::client {

namespace {

using json = nlohmann::json;

ApiError::Kind kindForStatus(int status)
{
    switch (status) {
    case 401:
    case 403:
        return ApiError::Kind::Authentication;
    case 402:
        return ApiError::Kind::Payment;
    case 404:
        return ApiError::Kind::NotFound;
    case 409:
        return ApiError::Kind::Conflict;
    case 408:
    case 504:
        return ApiError::Kind::Timeout;
    case 429:
        return ApiError::Kind::RateLimit;
    case 400:
    case 413:
    case 422:
        return ApiError::Kind::InvalidRequest;
    default:
        return ApiError::Kind::Server;
    }
}

QString text(const json& body, const char* key)
{
    const auto it = body.find(key);
    if (it == body.end() || !it->is_string())
        return {};
    return QString::fromStdString(it->get<std::string>());
}

int number(const json& body, const char* key)
{
    const auto it = body.find(key);
    if (it == body.end() || !it->is_number())
        return -1;
    const double v = it->get<double>();
    return std::isfinite(v) && v >= 0 && v < 2147483647.0 ? int(std::ceil(v)) : -1;
}

// Retry-After: delay-seconds or an HTTP-date.
int retryAfterHeader(const QByteArray& value)
{
    bool ok = false;
    const int seconds = value.trimmed().toInt(&ok);
    if (ok)
        return seconds >= 0 ? seconds : -1;
    const QDateTime when =
        QDateTime::fromString(QString::fromLatin1(value.trimmed()), Qt::RFC2822Date);
    if (!when.isValid())
        return -1;
    return int(std::max<qint64>(0, QDateTime::currentDateTimeUtc().secsTo(when)));
}

QString reasonFallback(int status, const QByteArray& reason)
{
    if (!reason.isEmpty())
        return QString::fromLatin1(reason);
    switch (status) {
    case 400:
        return QStringLiteral("Bad Request");
    case 401:
        return QStringLiteral("Unauthorized");
    case 402:
        return QStringLiteral("Payment Required");
    case 403:
        return QStringLiteral("Forbidden");
    case 404:
        return QStringLiteral("Not Found");
    case 408:
        return QStringLiteral("Request Timeout");
    case 409:
        return QStringLiteral("Conflict");
    case 413:
        return QStringLiteral("Payload Too Large");
    case 422:
        return QStringLiteral("Unprocessable Entity");
    case 429:
        return QStringLiteral("Too Many Requests");
    case 500:
        return QStringLiteral("Internal Server Error");
    case 501:
        return QStringLiteral("Not Implemented");
    case 502:
        return QStringLiteral("Bad Gateway");
    case 503:
        return QStringLiteral("Service Unavailable");
    case 504:
        return QStringLiteral("Gateway Timeout");
    default:
        return QStringLiteral("HTTP %1").arg(status);
    }
}

// curl's text without its "SSL certificate problem: " / "SSL: " prefix.
QString curlDetail(const QString& curlMessage)
{
    QString detail = curlMessage.trimmed();
    for (const char* prefix : {"SSL certificate problem: ", "SSL: "})
        if (detail.startsWith(QLatin1String(prefix)))
            detail = detail.mid(int(qstrlen(prefix)));
    return detail;
}

// TLS failures say what to do about them: the raw OpenSSL text alone leaves a user behind a
// company proxy with no idea that the fix is one file in Connections. Empty: not a TLS failure.
QString tlsMessage(int curlCode, const QString& curlMessage, QString* code)
{
    const QString detail = curlDetail(curlMessage);
    switch (curlCode) {
    case CURLE_PEER_FAILED_VERIFICATION: // also CURLE_SSL_CACERT since libcurl 7.62
        if (detail.contains(QLatin1String("host name")) ||
            detail.contains(QLatin1String("hostname")) ||
            detail.contains(QLatin1String("subject name"))) {
            *code = QStringLiteral("CERTIFICATE_HOST_MISMATCH");
            return QStringLiteral(
                       "The server's certificate is for another host name (%1). Check the "
                       "connection's URL; a proxy in between may also present its own "
                       "certificate.")
                .arg(detail);
        }
        *code = QStringLiteral("CERTIFICATE_UNTRUSTED");
        return QStringLiteral(
                   "The server's certificate is not trusted (%1). If your organisation uses "
                   "its own certificate authority, choose its certificate in Connections.")
            .arg(detail);
    case CURLE_SSL_CACERT_BADFILE:
        *code = QStringLiteral("CA_FILE_UNUSABLE");
        return QStringLiteral("The CA certificate file cannot be used (%1). Choose a readable PEM "
                              "certificate in Connections, or correct LIZARD_CA_BUNDLE.")
            .arg(detail);
    case CURLE_SSL_CONNECT_ERROR:
        *code = QStringLiteral("TLS_HANDSHAKE_FAILED");
        return QStringLiteral(
                   "The secure connection to the server could not be set up (%1). A proxy or "
                   "firewall in between may be interfering.")
            .arg(detail);
    default:
        return {};
    }
}

} // namespace

ApiError mapHttpError(int status, const QByteArray& body, const HeaderList& headers,
                      const QString& what, const QByteArray& reason)
{
    ApiError e;
    e.kind = kindForStatus(status);
    e.httpStatus = status;
    e.what = what;

    json parsed = json::parse(body.constBegin(), body.constEnd(), nullptr, false);
    const bool isJson = !parsed.is_discarded();
    if (!parsed.is_object())
        parsed = json::object();
    const QString error = text(parsed, "error");
    static const QRegularExpression codeRe(QStringLiteral("^[A-Z][A-Z0-9_]*$"));
    const bool errorIsCode = !error.isEmpty() && codeRe.match(error).hasMatch();
    const QString message = text(parsed, "message");
    e.message =
        errorIsCode ? (message.isEmpty() ? error : message) : (error.isEmpty() ? message : error);
    const QString code = text(parsed, "code");
    e.code = !code.isEmpty() ? code : (errorIsCode ? error : QString());

    if (e.message.isEmpty()) {
        // Not a JSON error object: keep the body's text (proxies and servers answer in HTML
        // or plain text), else the reason phrase.
        const QString bodyText = isJson ? QString() : QString::fromUtf8(body).trimmed();
        e.message = bodyText.isEmpty() ? reasonFallback(status, reason) : bodyText.left(2000);
    }

    if (status == 429) {
        e.limit = number(parsed, "limit");
        e.running = number(parsed, "running");
        e.retryAfterS = number(parsed, "retryAfterS");
        if (e.retryAfterS < 0) {
            for (const auto& h : headers)
                if (h.first == "retry-after")
                    e.retryAfterS = retryAfterHeader(h.second);
        }
    }
    return e;
}

ApiError mapTransportError(int curlCode, const QString& curlMessage, const QString& what)
{
    ApiError e;
    e.kind =
        curlCode == CURLE_OPERATION_TIMEDOUT ? ApiError::Kind::Timeout : ApiError::Kind::Network;
    e.message = curlMessage.isEmpty() ? QString::fromUtf8(curl_easy_strerror(CURLcode(curlCode)))
                                      : curlMessage;
    if (const QString tls = tlsMessage(curlCode, e.message, &e.code); !tls.isEmpty())
        e.message = tls;
    e.what = what;
    return e;
}

ApiError cancelledError(const QString& what)
{
    ApiError e;
    e.kind = ApiError::Kind::Cancelled;
    e.message = QStringLiteral("cancelled");
    e.what = what;
    return e;
}

ApiError protocolError(const QString& message, const QString& what, int httpStatus)
{
    ApiError e;
    e.kind = ApiError::Kind::Protocol;
    e.httpStatus = httpStatus;
    e.message = message;
    e.what = what;
    return e;
}

std::optional<ApiError> errorFromResponse(const HttpResponse& response, const QString& what)
{
    if (response.cancelled)
        return cancelledError(what);
    if (response.curlCode != CURLE_OK)
        return mapTransportError(response.curlCode, response.curlError, what);
    if (response.isSuccess())
        return std::nullopt;
    if (response.status < 100)
        return protocolError(QStringLiteral("the server gave no HTTP status"), what);
    ApiError e =
        mapHttpError(response.status, response.body, response.headers, what, response.reason);
    if (response.status >= 300 && response.status < 400 && !response.header("location").isEmpty())
        e.message += QStringLiteral(" (redirect to %1, not followed)")
                         .arg(QString::fromUtf8(response.header("location")));
    return e;
}

} // namespace lizard::client
