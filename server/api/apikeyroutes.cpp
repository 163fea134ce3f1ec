// GET|POST /api/account/api-keys, DELETE /api/account/api-keys/{id}: the account's keys.
// Scopes as the SDK's ApiKeyScope: no scope is full access; {type: "access", id: "read-only"}
// is lizard-local's read-only key (DECISIONS.md, "API keys").
#include "api/jsonbody.h"
#include "api/keystreams.h"
#include "api/routes.h"
#include "common/crypto.h"
#include "common/log.h"
#include "common/timeutil.h"
#include "store/store.h"

namespace lizard::api {

using http::bhttp::verb;
using ExPtr = std::shared_ptr<http::Exchange>;

namespace {

constexpr size_t kMaxKeyName = 100; // characters

nlohmann::json keyJson(const store::ApiKeyRecord& k)
{
    nlohmann::json scopes = nlohmann::json::array();
    if (k.readOnly)
        scopes.push_back({{"type", "access"}, {"id", "read-only"}, {"name", "Read-only"}});
    return {{"id", k.id},
            {"name", k.name},
            {"keyPreview", k.prefix + "…"},
            {"scopes", scopes},
            {"createdAt", k.createdAtMs},
            {"lastUsedAt", k.lastUsedMs > 0 ? nlohmann::json(k.lastUsedMs) : nlohmann::json()},
            {"bootstrap", k.bootstrap}};
}

size_t utf8Length(const std::string& s)
{
    size_t n = 0;
    for (const unsigned char c : s)
        n += (c & 0xC0) != 0x80;
    return n;
}

Result<std::string> keyName(const Fields& f)
{
    auto name = f.optString("name");
    if (!name)
        return name.error();
    std::string text = name->value_or("");
    const auto first = text.find_first_not_of(" \t");
    text = first == std::string::npos
               ? ""
               : text.substr(first, text.find_last_not_of(" \t") - first + 1);
    if (text.empty())
        return Error{ErrorKind::InvalidArgument, "INVALID_NAME",
                     "field \"name\" is required: a name that says what the key is for"};
    if (utf8Length(text) > kMaxKeyName)
        return Error{ErrorKind::InvalidArgument, "INVALID_NAME",
                     "the name is " + std::to_string(utf8Length(text)) +
                         " characters long; at most " + std::to_string(kMaxKeyName) +
                         " are allowed"};
    for (const unsigned char c : text) {
        if (c < 0x20 || c == 0x7F)
            return Error{ErrorKind::InvalidArgument, "INVALID_NAME",
                         "the name must not contain control characters"};
    }
    return text;
}

// true: read-only. Workspace and project scopes bound a cloud key to part of an account;
// lizard-local has one workspace and no per-project keys, so it refuses them rather than
// handing out a key broader than asked for.
Result<bool> keyReadOnly(const nlohmann::json& body)
{
    const auto it = body.find("scopes");
    if (it == body.end() || it->is_null())
        return false;
    if (!it->is_array())
        return Error{ErrorKind::InvalidArgument, "INVALID_SCOPE",
                     "field \"scopes\" must be an array of {type, id}"};
    bool readOnly = false;
    for (const auto& scope : *it) {
        const auto type =
            scope.is_object() ? scope.value("type", nlohmann::json()) : nlohmann::json();
        const auto id = scope.is_object() ? scope.value("id", nlohmann::json()) : nlohmann::json();
        const std::string t = type.is_string() ? type.get<std::string>() : "";
        const std::string i = id.is_string() ? id.get<std::string>() : "";
        if (t == "access" && (i == "read-only" || i == "full")) {
            readOnly = readOnly || i == "read-only";
            continue;
        }
        if (t == "workspace" || t == "project")
            return Error{ErrorKind::InvalidArgument, "INVALID_SCOPE",
                         "lizard-local has no " + t +
                             "-scoped keys (one local workspace); use no scope for full access or "
                             "{\"type\": \"access\", \"id\": \"read-only\"}"};
        return Error{ErrorKind::InvalidArgument, "INVALID_SCOPE",
                     "unknown scope " + scope.dump() +
                         "; lizard-local knows {\"type\": \"access\", \"id\": \"read-only\"} and "
                         "{\"type\": \"access\", \"id\": \"full\"} (no scope is full access)"};
    }
    return readOnly;
}

} // namespace

void registerApiKeyRoutes(Router& router, ApiContext& ctx)
{
    router.add(verb::get, "/api/account/api-keys", [&ctx](const ExPtr& ex, const Params&) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& k : ctx.store.keys())
            out.push_back(keyJson(k));
        ex->replyJson(200, out);
    });
    router.add(verb::post, "/api/account/api-keys", [&ctx](const ExPtr& ex, const Params&) {
        auto body = parseJsonObject(ex->request());
        if (!body)
            return ex->replyError(body.error());
        auto name = keyName(Fields(*body));
        if (!name)
            return ex->replyError(name.error());
        auto readOnly = keyReadOnly(*body);
        if (!readOnly)
            return ex->replyError(readOnly.error());
        // 44 characters of 62: 262 bits, more than 32 random bytes.
        const std::string key = "liz_" + randomAlnum(44);
        store::ApiKeyRecord rec{"key_" + randomLowerAlnum(12),
                                *name,
                                sha256Hex(key),
                                key.substr(0, 8),
                                nowMs(),
                                *readOnly};
        if (Status s = ctx.store.addKey(rec); !s)
            return ex->replyError(s.error());
        log::info("api key: created " + rec.prefix + "… \"" + rec.name + "\"" +
                  (rec.readOnly ? " (read-only)" : ""));
        nlohmann::json out = keyJson(rec);
        out["key"] = key; // the only time the full key leaves the server
        ex->replyJson(200, out);
    });
    router.add(verb::delete_, "/api/account/api-keys/{}", [&ctx](const ExPtr& ex, const Params& p) {
        const auto rec = ctx.store.keyById(p[0]);
        if (!rec)
            return ex->replyError(Error{ErrorKind::NotFound, "NOT_FOUND", "no API key " + p[0]});
        if (rec->bootstrap)
            return ex->replyError(Error{
                ErrorKind::Forbidden, "KEY_NOT_REVOCABLE",
                "the key of lizard-local's key file cannot be revoked through the API: delete the "
                "file api-key in its data directory and restart it to get a new one"});
        if (Status s = ctx.store.removeKey(rec->id); !s)
            return ex->replyError(s.error());
        const int cut = ctx.keyStreams ? ctx.keyStreams->revokeAll(rec->id) : 0;
        log::info("api key: revoked " + rec->prefix + "… \"" + rec->name + "\"" +
                  (cut > 0 ? ", ending " + std::to_string(cut) + " open request(s)" : ""));
        ex->replyEmpty();
    });
}

} // namespace lizard::api
