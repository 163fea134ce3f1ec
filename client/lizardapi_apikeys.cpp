// LizardApi: the account's API keys, and their JSON (ApiKeysAPI of the official SDK).
#include "client/apicall.h"
#include "client/jsonhelpers.h"
#include "client/lizardapi.h"
#include "client/requestbuilder.h"

namespace lizard::client {

using namespace apicall;
using namespace jsonhelpers;

namespace {

const QByteArray kKeysPath = "/api/account/api-keys";

ApiKey apiKey(const Json& j)
{
    const JsonReader r(j, QStringLiteral("API key"));
    ApiKey k;
    k.id = r.requiredString("id");
    k.name = r.string("name");
    k.preview = r.string("keyPreview");
    k.bootstrap = r.boolean("bootstrap", false);
    k.createdAt = r.time("createdAt");
    k.lastUsedAt = r.time("lastUsedAt");
    if (const Json* scopes = r.find("scopes"); scopes != nullptr && scopes->is_array()) {
        for (const Json& s : *scopes) {
            const JsonReader scope(s, QStringLiteral("API key scope"));
            const QString type = scope.string("type");
            const QString id = scope.string("id");
            if (type == "access" && id == "read-only")
                k.readOnly = true;
            // The server names what a scope reaches; without a name, its type and id.
            k.scopes.append(scope.string("name", type + ' ' + id));
        }
    }
    return k;
}

} // namespace

PendingCall* LizardApi::listApiKeys(QObject* ctx, Done<QList<ApiKey>> done)
{
    return startCall<QList<ApiKey>>(
        m_multi.get(), RequestBuilder(m_endpoint).json("GET", kKeysPath), tr("List API keys"), ctx,
        std::move(done), [](const QByteArray& body, const QString& what) {
            return parseWith<QList<ApiKey>>(
                body, what, [](const Json& j) { return listOf<ApiKey>(j, "API keys", apiKey); });
        });
}

PendingCall* LizardApi::createApiKey(const QString& name, bool readOnly, QObject* ctx,
                                     Done<CreatedApiKey> done)
{
    Json scopes = Json::array();
    if (readOnly)
        scopes.push_back({{"type", "access"}, {"id", "read-only"}});
    const auto req =
        RequestBuilder(m_endpoint)
            .json("POST", kKeysPath, dump(Json{{"name", utf8(name)}, {"scopes", scopes}}));
    return startCall<CreatedApiKey>(
        m_multi.get(), req, tr("Create API key"), ctx, std::move(done),
        [](const QByteArray& body, const QString& what) {
            return parseWith<CreatedApiKey>(body, what, [](const Json& j) {
                CreatedApiKey c{apiKey(j), {}};
                c.key = JsonReader(j, QStringLiteral("API key")).requiredString("key");
                return c;
            });
        });
}

PendingCall* LizardApi::revokeApiKey(const QString& id, QObject* ctx, Done<Unit> done)
{
    const auto req = RequestBuilder(m_endpoint).json("DELETE", kKeysPath + '/' + seg(id));
    return startCall<Unit>(m_multi.get(), req, tr("Revoke API key"), ctx, std::move(done), noValue);
}

} // namespace lizard::client
