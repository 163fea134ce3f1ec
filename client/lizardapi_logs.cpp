// A sandbox's system log (GET /api/sandboxes/{id}/logs?tail=N, SSE).
#include "client/apicall.h"
#include "client/lizardapi.h"
#include "client/logstreamimpl.h"
#include "client/requestbuilder.h"
#include "client/urlencoding.h"

namespace lizard::client {

LogStream* LizardApi::followLogs(const QString& sandboxId, int tail)
{
    HttpRequest r = RequestBuilder(m_endpoint)
                        .json("GET", withQuery(sandboxPath(sandboxId, "/logs"),
                                               {{"tail", QString::number(tail)}}));
    r.headers.removeIf([](const QByteArray& h) { return h.startsWith("Accept:"); });
    r.headers.append("Accept: text/event-stream");
    r.streaming = true;
    r.timeoutMs = 0; // follows as long as the sandbox lives
    return new LogStreamImpl(m_multi.get(), std::move(r), tr("Follow sandbox logs"));
}

} // namespace lizard::client
