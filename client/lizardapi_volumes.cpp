// LizardApi: the volumes of a project.
#include "client/apicall.h"
#include "client/jsonmapping.h"
#include "client/lizardapi.h"
#include "client/requestbuilder.h"

namespace lizard::client {

using namespace apicall;

namespace {
QByteArray volumesPath(const QString& projectId)
{
    return "/api/projects/" + seg(projectId) + "/volumes";
}
QByteArray volumePath(const QString& projectId, const QString& nameOrId)
{
    return volumesPath(projectId) + '/' + seg(nameOrId);
}
} // namespace

PendingCall* LizardApi::createVolume(const QString& projectId, const QString& name, int sizeGb,
                                     QObject* ctx, Done<Volume> done)
{
    const auto req =
        RequestBuilder(m_endpoint)
            .json("POST", volumesPath(projectId), createVolumeBody(name, sizeGb, false));
    return startCall<Volume>(m_multi.get(), req, tr("Create volume"), ctx, std::move(done),
                             parseVolume);
}

PendingCall* LizardApi::getOrCreateVolume(const QString& projectId, const QString& name, int sizeGb,
                                          QObject* ctx, Done<Volume> done)
{
    const auto req =
        RequestBuilder(m_endpoint)
            .json("POST", volumesPath(projectId), createVolumeBody(name, sizeGb, true));
    return startCall<Volume>(m_multi.get(), req, tr("Get or create volume"), ctx, std::move(done),
                             parseVolume);
}

PendingCall* LizardApi::listVolumes(const QString& projectId, QObject* ctx,
                                    Done<QList<Volume>> done)
{
    return startCall<QList<Volume>>(m_multi.get(),
                                    RequestBuilder(m_endpoint).json("GET", volumesPath(projectId)),
                                    tr("List volumes"), ctx, std::move(done), parseVolumes);
}

PendingCall* LizardApi::getVolume(const QString& projectId, const QString& nameOrId, QObject* ctx,
                                  Done<Volume> done)
{
    const auto req = RequestBuilder(m_endpoint).json("GET", volumePath(projectId, nameOrId));
    return startCall<Volume>(m_multi.get(), req, tr("Get volume"), ctx, std::move(done),
                             parseVolume);
}

PendingCall* LizardApi::resizeVolume(const QString& projectId, const QString& nameOrId, int sizeGb,
                                     QObject* ctx, Done<Volume> done)
{
    auto req = RequestBuilder(m_endpoint)
                   .json("PATCH", volumePath(projectId, nameOrId), resizeVolumeBody(sizeGb));
    req.timeoutMs = 300000; // growing an image file can take a while
    return startCall<Volume>(m_multi.get(), req, tr("Resize volume"), ctx, std::move(done),
                             parseVolume);
}

PendingCall* LizardApi::deleteVolume(const QString& projectId, const QString& nameOrId,
                                     QObject* ctx, Done<Unit> done)
{
    const auto req = RequestBuilder(m_endpoint).json("DELETE", volumePath(projectId, nameOrId));
    return startCall<Unit>(m_multi.get(), req, tr("Delete volume"), ctx, std::move(done), noValue);
}

} // namespace lizard::client
