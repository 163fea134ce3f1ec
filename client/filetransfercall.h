#pragma once
// The PendingCall behind LizardApi::uploadFile and downloadFile: one streaming CurlTransfer
// between a local file and the sandbox, with progress. Same rules as every PendingCall: a
// child of its context, cancel() reports Cancelled from the event loop, callbacks never run
// after the context is gone, and the call deletes itself after it finished.

#include "client/curltransfer.h"
#include "client/lizardapi.h"

#include <QPointer>
#include <QTimer>
#include <functional>
#include <memory>

class QSaveFile;

namespace lizard::client {

class UploadBody;

class FileTransferCall : public PendingCall
{
    Q_OBJECT
public:
    // Upload: body streams from localPath; done gets the file's byte count.
    static FileTransferCall* upload(CurlMulti* multi, HttpRequest request, const QString& localPath,
                                    const QString& remotePath, const QString& what, QObject* ctx,
                                    LizardApi::Progress progress, Done<qint64> done);
    // Download: a 2xx body streams into localPath (written atomically: a failed or cancelled
    // download leaves any existing file untouched).
    static FileTransferCall* download(CurlMulti* multi, HttpRequest request,
                                      const QString& localPath, const QString& what, QObject* ctx,
                                      LizardApi::Progress progress, Done<qint64> done);
    ~FileTransferCall() override;

    void cancel() override;

private:
    FileTransferCall(QObject* ctx, const QString& what, LizardApi::Progress progress,
                     Done<qint64> done);
    void start(CurlMulti* multi, HttpRequest request);
    void onData(const QByteArray& chunk);
    void onFinished(const HttpResponse& response);
    void failLater(const ApiError& error);
    void report(Outcome<qint64> outcome);
    void reportProgress();

    std::unique_ptr<CurlTransfer> m_transfer;
    std::unique_ptr<UploadBody> m_upload;
    std::unique_ptr<QSaveFile> m_download;
    QPointer<QObject> m_ctx;
    bool m_hasCtx = false;
    QString m_what;
    LizardApi::Progress m_progress;
    Done<qint64> m_done;
    QTimer m_progressTimer;
    qint64 m_bytes = 0;
    qint64 m_total = -1;
    qint64 m_lastReported = -1;
    QString m_localError;
    bool m_finished = false;
    bool m_cancelled = false;
};

} // namespace lizard::client
