// LizardApi: files of a sandbox read, written, listed, moved and removed whole.
#include "client/apicall.h"
#include "client/curlmulti.h"
#include "client/jsonmapping.h"
#include "client/lizardapi.h"
#include "client/requestbuilder.h"

namespace lizard::client {

using namespace apicall;

PendingCall* LizardApi::readFile(const QString& sandboxId, const QString& path, QObject* ctx,
                                 Done<QByteArray> done)
{
    const auto req =
        RequestBuilder(m_endpoint)
            .json("GET", withQuery(sandboxPath(sandboxId, "/files"), {{"path", path}}));
    return startCall<QByteArray>(m_multi.get(), req, tr("Read file"), ctx, std::move(done),
                                 rawBytes);
}

PendingCall* LizardApi::writeFile(const QString& sandboxId, const QString& path,
                                  const QByteArray& content, QObject* ctx, Done<Unit> done)
{
    auto req = RequestBuilder(m_endpoint)
                   .json("POST", sandboxPath(sandboxId, "/files"), writeFileBody(path, content));
    req.timeoutMs = 600000; // large uploads
    return startCall<Unit>(m_multi.get(), req, tr("Write file"), ctx, std::move(done), noValue);
}

PendingCall* LizardApi::removeFile(const QString& sandboxId, const QString& path, QObject* ctx,
                                   Done<Unit> done)
{
    const auto req =
        RequestBuilder(m_endpoint).json("DELETE", sandboxPath(sandboxId, "/files"), pathBody(path));
    return startCall<Unit>(m_multi.get(), req, tr("Remove file"), ctx, std::move(done), noValue);
}

PendingCall* LizardApi::listDir(const QString& sandboxId, const QString& path, QObject* ctx,
                                Done<QList<FileEntry>> done)
{
    const auto req =
        RequestBuilder(m_endpoint)
            .json("GET", withQuery(sandboxPath(sandboxId, "/files/list"), {{"path", path}}));
    // A listing can hold many thousands of entries (about 200 bytes of JSON each).
    return startCallParsedOffThread<QList<FileEntry>>(m_multi.get(), req, tr("List directory"), ctx,
                                                      std::move(done), parseFileEntries);
}

PendingCall* LizardApi::statFile(const QString& sandboxId, const QString& path, QObject* ctx,
                                 Done<FileEntry> done)
{
    const auto req =
        RequestBuilder(m_endpoint)
            .json("GET", withQuery(sandboxPath(sandboxId, "/files/stat"), {{"path", path}}));
    return startCall<FileEntry>(m_multi.get(), req, tr("Inspect file"), ctx, std::move(done),
                                parseFileEntry);
}

PendingCall* LizardApi::moveFile(const QString& sandboxId, const QString& from, const QString& to,
                                 QObject* ctx, Done<Unit> done)
{
    const auto req = RequestBuilder(m_endpoint)
                         .json("POST", sandboxPath(sandboxId, "/files/move"), moveBody(from, to));
    return startCall<Unit>(m_multi.get(), req, tr("Move file"), ctx, std::move(done), noValue);
}

} // namespace lizard::client
