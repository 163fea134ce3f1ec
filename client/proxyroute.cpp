#include "client/proxyroute.h"

#include "client/lizardapi.h"

namespace lizard::client {

void LizardApi::setProxyRoute(ProxyRoute* route)
{
    m_route = route;
}

void openRoute(QPointer<ProxyRoute> route, QList<QUrl> urls, QObject* ctx, const QString& what,
               std::function<void(std::optional<ApiError>)> done)
{
    urls.removeIf([](const QUrl& url) { return !url.isValid() || url.host().isEmpty(); });
    if (route == nullptr || urls.isEmpty()) {
        done(std::nullopt);
        return;
    }
    const QUrl first = urls.takeFirst();
    QPointer<QObject> alive(ctx);
    route->open(first, ctx,
                [route, urls, ctx, alive, what, done = std::move(done)](const QString& error) {
                    if (ctx != nullptr && alive == nullptr)
                        return;
                    if (!error.isEmpty()) {
                        ApiError e;
                        e.kind = ApiError::Kind::Network;
                        e.code = QStringLiteral("PROXY_ROUTE_FAILED");
                        e.what = what;
                        e.message = error;
                        done(e);
                        return;
                    }
                    openRoute(route, urls, ctx, what, done);
                });
}

} // namespace lizard::client
