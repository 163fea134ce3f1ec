// LizardApi: what a sandbox changed against its template (a lizard-local extension).
#include "client/apicall.h"
#include "client/jsonmapping.h"
#include "client/lizardapi.h"
#include "client/requestbuilder.h"
#include "client/urlencoding.h"

namespace lizard::client {

using namespace apicall;

PendingCall* LizardApi::sandboxChanges(const QString& sandboxId, const QStringList& exclude,
                                       QObject* ctx, Done<SandboxChanges> done,
                                       const QString& against)
{
    QList<QPair<QByteArray, QString>> query;
    if (!exclude.isEmpty())
        query.append({"exclude", exclude.join(QLatin1Char(','))});
    if (!against.isEmpty())
        query.append({"against", against});
    const auto req = RequestBuilder(m_endpoint)
                         .json("GET", withQuery(sandboxPath(sandboxId, "/changes"), query));
    // 100,000 changes are 7 MB of JSON: parsed away from the event loop.
    return startCallParsedOffThread<SandboxChanges>(m_multi.get(), req, tr("List changes"), ctx,
                                                    std::move(done), parseSandboxChanges);
}

PendingCall* LizardApi::templateOriginal(const QString& sandboxId, const QString& path,
                                         QObject* ctx, Done<QByteArray> done)
{
    const auto req =
        RequestBuilder(m_endpoint)
            .json("GET", withQuery(sandboxPath(sandboxId, "/changes/original"), {{"path", path}}));
    return startCall<QByteArray>(m_multi.get(), req, tr("Read the template's file"), ctx,
                                 std::move(done), rawBytes);
}

} // namespace lizard::client
