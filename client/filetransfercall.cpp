#include "client/filetransfercall.h"

#include "client/errormapping.h"
#include "client/uploadbody.h"

#include <QMetaObject>
#include <QSaveFile>

namespace lizard::client {

namespace {
constexpr int kProgressIntervalMs = 100;

ApiError localError(const QString& message, const QString& what)
{
    ApiError e;
    e.kind = ApiError::Kind::InvalidRequest;
    e.message = message;
    e.what = what;
    return e;
}
} // namespace

FileTransferCall::FileTransferCall(QObject* ctx, const QString& what, LizardApi::Progress progress,
                                   Done<qint64> done)
    : PendingCall(ctx), m_ctx(ctx), m_hasCtx(ctx != nullptr), m_what(what),
      m_progress(std::move(progress)), m_done(std::move(done))
{
    m_progressTimer.setInterval(kProgressIntervalMs);
    connect(&m_progressTimer, &QTimer::timeout, this, &FileTransferCall::reportProgress);
}

FileTransferCall::~FileTransferCall() = default; // the transfer's destructor stops it

FileTransferCall* FileTransferCall::upload(CurlMulti* multi, HttpRequest request,
                                           const QString& localPath, const QString& remotePath,
                                           const QString& what, QObject* ctx,
                                           LizardApi::Progress progress, Done<qint64> done)
{
    auto* call = new FileTransferCall(ctx, what, std::move(progress), std::move(done));
    call->m_upload = std::make_unique<UploadBody>();
    if (!call->m_upload->open(localPath, remotePath)) {
        call->failLater(localError(call->m_upload->errorString(), what));
        return call;
    }
    call->m_total = call->m_upload->fileSize();
    call->start(multi, std::move(request));
    if (call->m_transfer) {
        UploadBody* body = call->m_upload.get();
        call->m_transfer->setBodySource(
            body->size(), [body](char* out, qint64 max) { return body->read(out, max); });
        call->m_progressTimer.start(); // the read callback runs inside curl: poll its count instead
    }
    return call;
}

FileTransferCall* FileTransferCall::download(CurlMulti* multi, HttpRequest request,
                                             const QString& localPath, const QString& what,
                                             QObject* ctx, LizardApi::Progress progress,
                                             Done<qint64> done)
{
    auto* call = new FileTransferCall(ctx, what, std::move(progress), std::move(done));
    call->m_download = std::make_unique<QSaveFile>(localPath);
    if (!call->m_download->open(QIODevice::WriteOnly)) {
        call->failLater(localError(
            QStringLiteral("cannot write %1: %2").arg(localPath, call->m_download->errorString()),
            what));
        return call;
    }
    request.streaming = true;
    call->start(multi, std::move(request));
    if (call->m_transfer)
        call->m_transfer->setDataHandler([call](const QByteArray& chunk) { call->onData(chunk); });
    return call;
}

void FileTransferCall::start(CurlMulti* multi, HttpRequest request)
{
    m_transfer = std::make_unique<CurlTransfer>(std::move(request));
    m_transfer->setFinishHandler([this](const HttpResponse& response) {
        if (response.cancelled) // the CurlMulti is going away: not a moment to run callers' code
            QMetaObject::invokeMethod(
                this, [this, response] { onFinished(response); }, Qt::QueuedConnection);
        else
            onFinished(response);
    });
    // Started from the event loop so that the body source and data handler are set first.
    QMetaObject::invokeMethod(
        this,
        [this, multi] {
            if (m_finished || m_cancelled || !m_transfer)
                return;
            if (!m_transfer->start(multi))
                report(localError(QStringLiteral("cannot start the transfer"), m_what));
        },
        Qt::QueuedConnection);
}

void FileTransferCall::onData(const QByteArray& chunk)
{
    if (m_finished)
        return;
    if (m_total < 0) {
        bool ok = false;
        const qint64 length = m_transfer->response().header("content-length").toLongLong(&ok);
        m_total = ok ? length : 0;
    }
    if (m_download->write(chunk) != chunk.size()) {
        m_localError = QStringLiteral("cannot write %1: %2")
                           .arg(m_download->fileName(), m_download->errorString());
        m_transfer->cancel();
        report(localError(m_localError, m_what));
        return;
    }
    m_bytes += chunk.size();
    reportProgress();
}

void FileTransferCall::onFinished(const HttpResponse& response)
{
    if (m_finished)
        return;
    if (m_upload && response.curlCode == CURLE_ABORTED_BY_CALLBACK &&
        !m_upload->errorString().isEmpty())
        return report(localError(m_upload->errorString(), m_what));
    if (const auto error = errorFromResponse(response, m_what))
        return report(*error);
    if (m_upload) {
        m_bytes = m_upload->fileBytesRead();
    } else if (!m_download->commit()) {
        return report(localError(QStringLiteral("cannot save %1: %2")
                                     .arg(m_download->fileName(), m_download->errorString()),
                                 m_what));
    }
    if (m_total < 0)
        m_total = m_bytes;
    reportProgress();
    report(m_bytes);
}

void FileTransferCall::cancel()
{
    if (m_finished || m_cancelled)
        return;
    m_cancelled = true;
    if (m_transfer)
        m_transfer->cancel();
    QMetaObject::invokeMethod(
        this, [this] { report(cancelledError(m_what)); }, Qt::QueuedConnection);
}

void FileTransferCall::failLater(const ApiError& error)
{
    QMetaObject::invokeMethod(
        this, [this, error] { report(error); }, Qt::QueuedConnection);
}

void FileTransferCall::reportProgress()
{
    if (m_upload)
        m_bytes = m_upload->fileBytesRead();
    if (m_bytes == m_lastReported || !m_progress || (m_hasCtx && m_ctx == nullptr))
        return;
    m_lastReported = m_bytes;
    const LizardApi::Progress progress = m_progress; // may cancel or delete this call
    progress(m_bytes, qMax<qint64>(m_total, 0));
}

void FileTransferCall::report(Outcome<qint64> outcome)
{
    if (m_finished)
        return;
    m_finished = true;
    m_progressTimer.stop();
    if (m_transfer)
        m_transfer->cancel();
    if (m_download && !outcome.ok())
        m_download->cancelWriting(); // QSaveFile drops its temporary file
    const QPointer<FileTransferCall> self(this);
    if (!m_hasCtx || m_ctx != nullptr) {
        const Done<qint64> done = std::move(m_done);
        if (done)
            done(std::move(outcome)); // may destroy ctx, and with it this call
    }
    if (self == nullptr)
        return;
    emit finished();
    if (self != nullptr)
        deleteLater();
}

} // namespace lizard::client
