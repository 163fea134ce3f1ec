#pragma once
// HTTP answers and transport failures → ApiError, exactly as the official SDK maps them
// (the SDK's handleApiError; the codes lizard-local adds are in server/api/DECISIONS.md).

#include "client/httpmessage.h"
#include "client/types.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

namespace lizard::client {

using HeaderList = QList<QPair<QByteArray, QByteArray>>;

// An HTTP error answer (status outside 2xx). headers: names lower-case. reason: the status
// line's reason phrase, used as the message when the body says nothing.
ApiError mapHttpError(int status, const QByteArray& body, const HeaderList& headers,
                      const QString& what, const QByteArray& reason = {});

// No usable HTTP answer: curlCode is a CURLcode (timeouts map to Timeout, others to Network).
ApiError mapTransportError(int curlCode, const QString& curlMessage, const QString& what);

ApiError cancelledError(const QString& what);
ApiError protocolError(const QString& message, const QString& what, int httpStatus = 0);

// The error for a finished transfer, or std::nullopt when it is a 2xx answer.
std::optional<ApiError> errorFromResponse(const HttpResponse& response, const QString& what);

} // namespace lizard::client
