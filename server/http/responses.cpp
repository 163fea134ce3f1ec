#include "http/responses.h"

namespace lizard::http {

namespace {

void commonHeaders(StringResponse& res)
{
    res.set(bhttp::field::server, "lizard-local/" LIZARD_VERSION);
    res.set(bhttp::field::cache_control, "no-store");
}

} // namespace

std::string safeDump(const nlohmann::json& value)
{
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

StringResponse jsonResponse(int status, const nlohmann::json& body)
{
    StringResponse res{static_cast<bhttp::status>(status), 11};
    commonHeaders(res);
    res.set(bhttp::field::content_type, "application/json");
    res.body() = safeDump(body);
    res.prepare_payload();
    return res;
}

StringResponse emptyResponse(int status)
{
    StringResponse res{static_cast<bhttp::status>(status), 11};
    commonHeaders(res);
    res.prepare_payload();
    return res;
}

int httpStatus(ErrorKind kind)
{
    switch (kind) {
    case ErrorKind::Internal:
        return 500;
    case ErrorKind::InvalidArgument:
        return 400;
    case ErrorKind::Unauthenticated:
        return 401;
    case ErrorKind::Forbidden:
        return 403;
    case ErrorKind::NotFound:
        return 404;
    case ErrorKind::Conflict:
        return 409;
    case ErrorKind::LimitReached:
        return 429;
    case ErrorKind::NotImplemented:
        return 501;
    case ErrorKind::Unreachable:
        return 502;
    case ErrorKind::Unavailable:
        return 503;
    case ErrorKind::Timeout:
        return 504;
    case ErrorKind::InsufficientStorage:
        return 507;
    }
    return 500;
}

namespace {

nlohmann::json errorBody(const std::string& code, const std::string& message)
{
    return {{"error", code}, {"code", code}, {"message", message}};
}

} // namespace

nlohmann::json errorBody(const Error& error)
{
    return errorBody(error.code, error.message);
}

StringResponse errorResponse(const Error& error, const nlohmann::json& extra)
{
    nlohmann::json body = errorBody(error);
    if (extra.is_object()) {
        for (const auto& [k, v] : extra.items())
            body[k] = v;
    }
    return jsonResponse(httpStatus(error.kind), body);
}

StringResponse errorResponse(bhttp::status status, const std::string& code,
                             const std::string& message)
{
    return jsonResponse(static_cast<int>(status), errorBody(code, message));
}

} // namespace lizard::http
