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

nlohmann::json errorBody(const Error& error)
{
    return {{"error", error.code}, {"code", error.code}, {"message", error.message}};
}

StringResponse errorResponse(const Error& error, const nlohmann::json& extra)
{
    nlohmann::json body = errorBody(error);
    if (extra.is_object()) {
        for (const auto& [k, v] : extra.items())
            body[k] = v;
    }
    const int status = error.status >= 400 && error.status <= 599 ? error.status : 500;
    return jsonResponse(status, body);
}

} // namespace lizard::http
