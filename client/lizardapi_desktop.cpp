// LizardApi: the screen of a desktop sandbox.
#include "client/apicall.h"
#include "client/jsonmapping.h"
#include "client/lizardapi.h"
#include "client/proxyroute.h"
#include "client/requestbuilder.h"

#include <nlohmann/json.hpp>

namespace lizard::client {

using apicall::noValue;
using apicall::startCall;

namespace {

QByteArray desktopPath(const QString& sandboxId)
{
    return "/api/sandboxes/" + encodeUriComponent(sandboxId) + "/desktop";
}

Outcome<DesktopInfo> desktopAnswer(const QByteArray& body, const QString& what)
{
    return parseDesktopInfo(body, what);
}

// The viewer pages are served by the port proxy: their way is opened before the answer is given.
Done<DesktopInfo> routed(QPointer<ProxyRoute> route, QObject* ctx, const QString& what,
                         Done<DesktopInfo> done)
{
    if (route == nullptr)
        return done;
    return [route, ctx, what, done = std::move(done)](Outcome<DesktopInfo> outcome) {
        if (!done)
            return;
        if (!outcome.ok() || !outcome.value().running || route == nullptr) {
            done(std::move(outcome));
            return;
        }
        const DesktopInfo info = outcome.value();
        openRoute(route, {QUrl(info.url), QUrl(info.viewOnlyUrl)}, ctx, what,
                  [done, info](std::optional<ApiError> error) {
                      done(error ? Outcome<DesktopInfo>(*error) : Outcome<DesktopInfo>(info));
                  });
    };
}

} // namespace

PendingCall* LizardApi::startDesktop(const QString& sandboxId, QSize size, QObject* ctx,
                                     Done<DesktopInfo> done)
{
    nlohmann::json body = nlohmann::json::object();
    if (size.isValid()) {
        body["width"] = size.width();
        body["height"] = size.height();
    }
    const auto req =
        RequestBuilder(m_endpoint)
            .json("POST", desktopPath(sandboxId), QByteArray::fromStdString(body.dump()));
    const QString what = tr("Start the desktop");
    return startCall<DesktopInfo>(m_multi.get(), req, what, ctx,
                                  routed(m_route, ctx, what, std::move(done)), desktopAnswer);
}

PendingCall* LizardApi::desktopInfo(const QString& sandboxId, QObject* ctx, Done<DesktopInfo> done)
{
    const auto req = RequestBuilder(m_endpoint).json("GET", desktopPath(sandboxId));
    const QString what = tr("Desktop");
    return startCall<DesktopInfo>(m_multi.get(), req, what, ctx,
                                  routed(m_route, ctx, what, std::move(done)), desktopAnswer);
}

PendingCall* LizardApi::stopDesktop(const QString& sandboxId, QObject* ctx, Done<Unit> done)
{
    const auto req = RequestBuilder(m_endpoint).json("DELETE", desktopPath(sandboxId));
    return startCall<Unit>(m_multi.get(), req, tr("Stop the desktop"), ctx, std::move(done),
                           noValue);
}

} // namespace lizard::client
