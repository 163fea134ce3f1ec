// LizardApi: the screen of a desktop sandbox.
#include "client/apicall.h"
#include "client/jsonmapping.h"
#include "client/lizardapi.h"
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
    return startCall<DesktopInfo>(m_multi.get(), req, tr("Start the desktop"), ctx, std::move(done),
                                  desktopAnswer);
}

PendingCall* LizardApi::desktopInfo(const QString& sandboxId, QObject* ctx, Done<DesktopInfo> done)
{
    const auto req = RequestBuilder(m_endpoint).json("GET", desktopPath(sandboxId));
    return startCall<DesktopInfo>(m_multi.get(), req, tr("Desktop"), ctx, std::move(done),
                                  desktopAnswer);
}

PendingCall* LizardApi::stopDesktop(const QString& sandboxId, QObject* ctx, Done<Unit> done)
{
    const auto req = RequestBuilder(m_endpoint).json("DELETE", desktopPath(sandboxId));
    return startCall<Unit>(m_multi.get(), req, tr("Stop the desktop"), ctx, std::move(done),
                           noValue);
}

} // namespace lizard::client
