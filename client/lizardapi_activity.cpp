// LizardApi: the activity log (GET .../activity?since=&limit=, JSON pages or followed over
// SSE), a lizard-local extension.
#include "client/activitystreamimpl.h"
#include "client/apicall.h"
#include "client/jsonmapping.h"
#include "client/lizardapi.h"
#include "client/requestbuilder.h"
#include "client/urlencoding.h"

namespace lizard::client {

using namespace apicall;

PendingCall* LizardApi::activity(const QString& sandboxId, qint64 since, int limit, QObject* ctx,
                                 Done<ActivityPage> done)
{
    const auto req = RequestBuilder(m_endpoint)
                         .json("GET", withQuery(sandboxPath(sandboxId, "/activity"),
                                                {{"since", QString::number(since)},
                                                 {"limit", QString::number(limit)}}));
    // A page may hold runs with images: parsed off the event loop.
    return startCallParsedOffThread<ActivityPage>(m_multi.get(), req, tr("Activity"), ctx,
                                                  std::move(done), parseActivityPage);
}

ActivityStream* LizardApi::followActivity(const QString& sandboxId, qint64 since)
{
    return new ActivityStreamImpl(m_multi.get(),
                                  RequestBuilder(m_endpoint)
                                      .follow(withQuery(sandboxPath(sandboxId, "/activity"),
                                                        {{"since", QString::number(since)}})),
                                  tr("Follow activity"));
}

} // namespace lizard::client
