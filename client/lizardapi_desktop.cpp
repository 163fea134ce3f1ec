// LizardApi: the screen of a desktop sandbox.
#include "client/desktopmapping.h"
#include "client/errormapping.h"
#include "client/lizardapi.h"
#include "client/pendingcallimpl.h"
#include "client/requestbuilder.h"
#include "client/urlencoding.h"

#include <nlohmann/json.hpp>

namespace lizard::client {

namespace {

QByteArray desktopPath(const QString& sandboxId)
{
    return "/api/sandboxes/" + encodeUriComponent(sandboxId) + "/desktop";
}

// The answer of start and info: an error, or the desktop's state.
auto infoHandler(const QString& what, LizardApi::Done<DesktopInfo> done)
{
    return [what, done = std::move(done)](const HttpResponse& r) {
        if (!done)
            return;
        if (const auto error = errorFromResponse(r, what)) {
            done(*error);
            return;
        }
        Outcome<DesktopInfo> outcome = parseDesktopInfo(r.body, what);
        if (!outcome.ok()) {
            ApiError e = outcome.error();
            e.httpStatus = r.status;
            outcome = Outcome<DesktopInfo>(e);
        }
        done(std::move(outcome));
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
    const QByteArray text = QByteArray::fromStdString(body.dump());
    const auto req = RequestBuilder(m_endpoint).json("POST", desktopPath(sandboxId), text);
    return new PendingCallImpl(m_multi.get(), req, ctx,
                               infoHandler(tr("Start the desktop"), std::move(done)));
}

PendingCall* LizardApi::desktopInfo(const QString& sandboxId, QObject* ctx, Done<DesktopInfo> done)
{
    const auto req = RequestBuilder(m_endpoint).json("GET", desktopPath(sandboxId));
    return new PendingCallImpl(m_multi.get(), req, ctx,
                               infoHandler(tr("Desktop"), std::move(done)));
}

PendingCall* LizardApi::stopDesktop(const QString& sandboxId, QObject* ctx, Done<Unit> done)
{
    const QString what = tr("Stop the desktop");
    const auto req = RequestBuilder(m_endpoint).json("DELETE", desktopPath(sandboxId));
    return new PendingCallImpl(m_multi.get(), req, ctx,
                               [what, done = std::move(done)](const HttpResponse& r) {
                                   if (!done)
                                       return;
                                   if (const auto error = errorFromResponse(r, what))
                                       done(*error);
                                   else
                                       done(Unit{});
                               });
}

} // namespace lizard::client
