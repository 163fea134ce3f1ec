// A sandbox's system log (GET /api/sandboxes/{id}/logs?tail=N, SSE).
#include "client/apicall.h"
#include "client/lizardapi.h"
#include "client/logstreamimpl.h"
#include "client/requestbuilder.h"
#include "client/urlencoding.h"

namespace lizard::client {

LogStream* LizardApi::followLogs(const QString& sandboxId, int tail)
{
    return new LogStreamImpl(
        m_multi.get(),
        RequestBuilder(m_endpoint)
            .follow(withQuery(sandboxPath(sandboxId, "/logs"), {{"tail", QString::number(tail)}})),
        tr("Follow sandbox logs"));
}

} // namespace lizard::client
