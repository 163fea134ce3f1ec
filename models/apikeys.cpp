#include "models/apikeys.h"

#include "client/lizardapi.h"

namespace lizard::models {

ApiKeys::ApiKeys(client::LizardApi* api, QObject* parent) : QObject(parent), m_api(api) {}

bool ApiKeys::connected(const QString& what, bool listing)
{
    if (m_api)
        return true;
    const auto e = client::ApiError::notConnected(what);
    if (listing)
        emit listFailed(e);
    else
        emit failed(e);
    return false;
}

void ApiKeys::refresh()
{
    if (!connected(QStringLiteral("List API keys"), true))
        return;
    m_api->listApiKeys(this, [this](client::Outcome<QList<client::ApiKey>> r) {
        if (!r)
            return emit listFailed(r.error());
        m_keys = r.value();
        emit listed(m_keys);
    });
}

void ApiKeys::create(const QString& name, bool readOnly)
{
    if (!connected(QStringLiteral("Create API key"), false))
        return;
    m_api->createApiKey(name, readOnly, this, [this](client::Outcome<client::CreatedApiKey> r) {
        if (!r)
            return emit failed(r.error());
        emit created(r.value().key);
        refresh();
    });
}

void ApiKeys::revoke(const QString& id)
{
    if (!connected(QStringLiteral("Revoke API key"), false))
        return;
    m_api->revokeApiKey(id, this, [this](client::Outcome<client::Unit> r) {
        if (!r)
            return emit failed(r.error());
        refresh();
    });
}

} // namespace lizard::models
