#pragma once
// Uniform responses: JSON bodies and the JSON error shape
// {"error":"CODE","code":"CODE","message":"..."} used by every failure.

#include "common/result.h"
#include "http/beast.h"

#include <nlohmann/json.hpp>

namespace lizard::http {

// The one place where an error's kind becomes an HTTP status.
int httpStatus(ErrorKind kind);

StringResponse jsonResponse(int status, const nlohmann::json& body);
StringResponse emptyResponse(int status = 204);
// `extra` fields are merged into the error object (e.g. limit, running for 429).
StringResponse errorResponse(const Error& error,
                             const nlohmann::json& extra = nlohmann::json::object());
// A failure of HTTP itself (a malformed request, a header or body over its limit, a method a
// path does not take), in the same JSON shape.
StringResponse errorResponse(bhttp::status status, const std::string& code,
                             const std::string& message);
nlohmann::json errorBody(const Error& error);

// Dumps JSON without ever failing: invalid UTF-8 in strings becomes U+FFFD.
std::string safeDump(const nlohmann::json& value);

} // namespace lizard::http
