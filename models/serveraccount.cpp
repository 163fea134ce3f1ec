#include "models/serveraccount.h"

#include "client/keytransport.h"
#include "client/lizardapi.h"

#include <QUrl>

namespace lizard::models {

QString serverUrl(const client::LizardApi* api)
{
    return api ? api->endpoint().baseUrl : QString();
}

bool isLocalServer(const client::LizardApi* api)
{
    if (!api)
        return false;
    return client::isLoopbackHost(QUrl(api->endpoint().baseUrl).host());
}

void askWhoAmI(client::LizardApi* api, QObject* ctx, client::Done<client::WhoAmI> done)
{
    if (!api)
        return done(client::ApiError::notConnected(QStringLiteral("Who am I")));
    api->whoAmI(ctx, std::move(done));
}

void testEndpoint(const client::Endpoint& endpoint, QObject* ctx, client::Done<client::WhoAmI> done)
{
    auto* api = new client::LizardApi(endpoint, ctx);
    api->whoAmI(api, [api, done](client::Outcome<client::WhoAmI> outcome) {
        api->deleteLater();
        done(std::move(outcome));
    });
}

} // namespace lizard::models
