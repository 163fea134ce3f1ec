// LizardApi: lizard-local's warm pools of the templates (a local extension; the cloud answers
// 404).
#include "client/apicall.h"
#include "client/jsonmapping.h"
#include "client/lizardapi.h"
#include "client/requestbuilder.h"

namespace lizard::client {

using namespace apicall;

PendingCall* LizardApi::listTemplatePools(QObject* ctx, Done<QList<TemplatePool>> done)
{
    return startCall<QList<TemplatePool>>(
        m_multi.get(), RequestBuilder(m_endpoint).json("GET", "/api/templates"),
        tr("List warm pools"), ctx, std::move(done), parseTemplatePools);
}

PendingCall* LizardApi::setTemplatePool(const QString& name, int poolSize, QObject* ctx,
                                        Done<TemplatePool> done)
{
    const QByteArray body = "{\"poolSize\":" + QByteArray::number(poolSize) + "}";
    return startCall<TemplatePool>(
        m_multi.get(),
        RequestBuilder(m_endpoint).json("PATCH", "/api/templates/" + seg(name), body),
        tr("Set the warm pool of %1").arg(name), ctx, std::move(done), parseTemplatePool);
}

} // namespace lizard::client
