// LizardApi: what a sandbox changed against its template (a lizard-local extension).
#include "client/apicall.h"
#include "client/filetransfercall.h"
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
                                         QObject* ctx, Done<QByteArray> done,
                                         const QString& against)
{
    QList<QPair<QByteArray, QString>> query{{"path", path}};
    if (!against.isEmpty())
        query.append({"against", against});
    const auto req =
        RequestBuilder(m_endpoint)
            .json("GET", withQuery(sandboxPath(sandboxId, "/changes/original"), query));
    return startCall<QByteArray>(m_multi.get(), req,
                                 against.isEmpty() ? tr("Read the template's file")
                                                   : tr("Read the file it is compared with"),
                                 ctx, std::move(done), rawBytes);
}

PendingCall* LizardApi::downloadChangesArchive(const QString& sandboxId, const QStringList& exclude,
                                               const QString& localPath, QObject* ctx,
                                               std::function<void(qint64, qint64)> progress,
                                               Done<qint64> done)
{
    QList<QPair<QByteArray, QString>> query{{"format", QStringLiteral("tar")}};
    if (!exclude.isEmpty())
        query.append({"exclude", exclude.join(QLatin1Char(','))});
    HttpRequest req =
        RequestBuilder(m_endpoint)
            .json("GET", withQuery(sandboxPath(sandboxId, "/changes/archive"), query));
    req.timeoutMs = 0; // as long as the layer takes; cancel() ends it
    return FileTransferCall::download(m_multi.get(), std::move(req), localPath,
                                      tr("Save the changes as a tar"), ctx, std::move(progress),
                                      std::move(done));
}

} // namespace lizard::client
