// LizardApi: resource metrics (lizard-local's local extension; the cloud answers 404).
#include "client/apicall.h"
#include "client/jsonmapping.h"
#include "client/lizardapi.h"
#include "client/requestbuilder.h"

namespace lizard::client {

using namespace apicall;

PendingCall* LizardApi::sandboxMetrics(const QString& sandboxId, const QString& range, QObject* ctx,
                                       Done<SandboxMetrics> done)
{
    const QByteArray query = range.isEmpty() ? QByteArray() : "?range=" + seg(range);
    return startCall<SandboxMetrics>(
        m_multi.get(),
        RequestBuilder(m_endpoint).json("GET", sandboxPath(sandboxId, "/metrics" + query)),
        tr("Sandbox metrics"), ctx, std::move(done), parseSandboxMetrics);
}

PendingCall* LizardApi::projectMetrics(const QString& projectId, QObject* ctx,
                                       Done<ProjectMetrics> done)
{
    return startCall<ProjectMetrics>(
        m_multi.get(),
        RequestBuilder(m_endpoint).json("GET", "/api/projects/" + seg(projectId) + "/metrics"),
        tr("Project metrics"), ctx, std::move(done), parseProjectMetrics);
}

} // namespace lizard::client
