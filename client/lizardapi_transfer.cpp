// LizardApi: streaming file transfers and makeDir (the files panel).
#include "client/curlmulti.h"
#include "client/filetransfercall.h"
#include "client/lizardapi.h"
#include "client/requestbuilder.h"
#include "client/urlencoding.h"

namespace lizard::client {

namespace {

QByteArray filesPath(const QString& sandboxId)
{
    return "/api/sandboxes/" + encodeUriComponent(sandboxId) + "/files";
}

} // namespace

PendingCall* LizardApi::uploadFile(const QString& sandboxId, const QString& localPath,
                                   const QString& remotePath, QObject* ctx, Progress progress,
                                   Done<qint64> done)
{
    // The body is streamed (see UploadBody); the request carries only the headers.
    HttpRequest req = RequestBuilder(m_endpoint).json("POST", filesPath(sandboxId), QByteArray());
    req.timeoutMs = 0; // a large file on a slow link may take long; cancel() ends it
    return FileTransferCall::upload(m_multi.get(), std::move(req), localPath, remotePath,
                                    tr("Upload file"), ctx, std::move(progress), std::move(done));
}

PendingCall* LizardApi::downloadFile(const QString& sandboxId, const QString& remotePath,
                                     const QString& localPath, QObject* ctx, Progress progress,
                                     Done<qint64> done)
{
    HttpRequest req =
        RequestBuilder(m_endpoint)
            .json("GET", filesPath(sandboxId) + "?path=" + encodeUriComponent(remotePath));
    req.timeoutMs = 0;
    return FileTransferCall::download(m_multi.get(), std::move(req), localPath, tr("Download file"),
                                      ctx, std::move(progress), std::move(done));
}

PendingCall* LizardApi::makeDir(const QString& sandboxId, const QString& path, QObject* ctx,
                                Done<Unit> done)
{
    const QString what = tr("Create folder");
    return execArgv(sandboxId,
                    {QStringLiteral("mkdir"), QStringLiteral("-p"), QStringLiteral("--"), path}, {},
                    ctx, [done = std::move(done), what, path](Outcome<ExecResult> result) {
                        if (!done)
                            return;
                        if (!result) {
                            ApiError e = result.error();
                            e.what = what;
                            return done(e);
                        }
                        if (result.value().exitCode != 0) {
                            ApiError e;
                            e.kind = ApiError::Kind::InvalidRequest;
                            e.what = what;
                            e.message = result.value().stderrText.trimmed();
                            if (e.message.isEmpty())
                                e.message = QStringLiteral("mkdir %1 exited with %2")
                                                .arg(path)
                                                .arg(result.value().exitCode);
                            return done(e);
                        }
                        done(Unit{});
                    });
}

} // namespace lizard::client
