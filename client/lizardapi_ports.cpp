// LizardApi: exposing sandbox ports. Kept apart from lizardapi.cpp so features
// add calls without touching each other's files.
#include "client/apicall.h"
#include "client/errormapping.h"
#include "client/jsonmapping.h"
#include "client/lizardapi.h"
#include "client/pendingcallimpl.h"
#include "client/proxyroute.h"
#include "client/requestbuilder.h"
#include "client/urlencoding.h"

namespace lizard::client {

namespace {

QByteArray exposePath(const QString& sandboxId, int port)
{
    return "/api/sandboxes/" + encodeUriComponent(sandboxId) + "/expose/" +
           QByteArray::number(port);
}

bool validPort(int port)
{
    return port >= 1 && port <= 65535;
}

// A call refused before it reaches the network (the callback still runs from the event loop).
template <class T> PendingCall* refuse(QObject* ctx, Done<T> done, const QString& what, int port)
{
    ApiError e;
    e.kind = ApiError::Kind::InvalidRequest;
    e.message = QStringLiteral("%1 is not a TCP port (1–65535)").arg(port);
    e.what = what;
    return new PendingCallImpl(ctx, [done = std::move(done), e] {
        if (done)
            done(e);
    });
}

} // namespace

PendingCall* LizardApi::exposePort(const QString& sandboxId, int port, QObject* ctx,
                                   Done<ExposedPort> done)
{
    const QString what = tr("Expose port %1").arg(port);
    if (!validPort(port))
        return refuse(ctx, std::move(done), what, port);
    const auto req = RequestBuilder(m_endpoint).json("POST", exposePath(sandboxId, port));
    return new PendingCallImpl(
        m_multi.get(), req, ctx,
        [what, port, route = m_route, ctx, done = std::move(done)](const HttpResponse& r) {
            if (!done)
                return;
            if (const auto error = errorFromResponse(r, what)) {
                done(*error);
                return;
            }
            Outcome<ExposedPort> outcome = parseExposedPort(r.body, port, what);
            if (!outcome.ok()) {
                ApiError e = outcome.error();
                e.httpStatus = r.status;
                outcome = Outcome<ExposedPort>(e);
            }
            if (!outcome.ok() || route == nullptr) {
                done(std::move(outcome));
                return;
            }
            const QUrl url(outcome.value().url);
            openRoute(route, {url}, ctx, what, [done, outcome](std::optional<ApiError> error) {
                done(error ? Outcome<ExposedPort>(*error) : outcome);
            });
        });
}

PendingCall* LizardApi::unexposePort(const QString& sandboxId, int port, QObject* ctx,
                                     Done<Unit> done)
{
    const QString what = tr("Unexpose port %1").arg(port);
    if (!validPort(port))
        return refuse(ctx, std::move(done), what, port);
    const auto req = RequestBuilder(m_endpoint).json("DELETE", exposePath(sandboxId, port));
    return apicall::startCall<Unit>(m_multi.get(), req, what, ctx, std::move(done),
                                    apicall::noValue);
}

} // namespace lizard::client
