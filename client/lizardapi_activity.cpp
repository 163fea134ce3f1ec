// LizardApi: the activity log (GET .../activity?since=&limit=, JSON pages or followed over
// SSE), a lizard-local extension.
#include "client/activitystreamimpl.h"
#include "client/apicall.h"
#include "client/jsonhelpers.h"
#include "client/jsonreader.h"
#include "client/lizardapi.h"
#include "client/requestbuilder.h"
#include "client/urlencoding.h"

namespace lizard::client {

using namespace apicall;
using namespace jsonhelpers;

namespace {

Outcome<ActivityPage> parseActivityPage(const QByteArray& body, const QString& what)
{
    return parseWith<ActivityPage>(body, what, [](const Json& j) {
        ActivityPage page;
        const auto entries = j.find("entries");
        if (!j.is_object() || entries == j.end() || !entries->is_array())
            throw JsonShapeError("the activity answer has no \"entries\" array");
        for (const Json& e : *entries) {
            if (e.is_object() && e.contains("seq") && e["seq"].is_number_unsigned())
                page.entries.push_back(e);
        }
        page.lastSeq = j.value("lastSeq", qint64(0));
        page.more = j.value("more", false);
        return page;
    });
}

} // namespace

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
