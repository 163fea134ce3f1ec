#pragma once
// A way to the server's port proxy that must be opened before a browser can use an address
// the server hands out (an exposed port's url, a desktop's viewer pages). Direct connections
// need none; an SSH tunnel (app/ssh) forwards each such address through its connection. The
// API calls that answer such addresses hold their answer until the route is open, so no page
// is loaded before its way exists.

#include "client/types.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QUrl>
#include <functional>
#include <optional>

namespace lizard::client {

class ProxyRoute : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    // Makes `url`'s host and port reachable from this computer; `done` gets "" or why not,
    // from the event loop, unless `ctx` is gone by then.
    virtual void open(const QUrl& url, QObject* ctx, std::function<void(QString error)> done) = 0;
};

// For the API calls: opens each of `urls` in turn (a null route or no valid url: at once), then
// `done` with nothing or a Network error (code PROXY_ROUTE_FAILED) naming `what`. Nothing runs
// once `ctx`, if given, is gone.
void openRoute(QPointer<ProxyRoute> route, QList<QUrl> urls, QObject* ctx, const QString& what,
               std::function<void(std::optional<ApiError>)> done);

} // namespace lizard::client
