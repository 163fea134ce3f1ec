#include "models/files/downloadjob.h"

#include "client/lizardapi.h"
#include "models/files/remotepath.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>

namespace lizard::models::files {

namespace {
constexpr char kArchiveName[] = "folder.tar";
constexpr char kUnpackDir[] = "unpacked";
} // namespace

DownloadJob::DownloadJob(client::LizardApi* api, const QString& sandboxId,
                         const QString& remotePath, bool isFolder, const QString& localTarget,
                         QObject* parent)
    : TransferJob(api, sandboxId, Direction::Download, parent),
      m_remotePath(RemotePath::clean(remotePath)), m_isFolder(isFolder),
      m_localTarget(QFileInfo(localTarget).absoluteFilePath())
{
    setTitle(tr("Download %1 → %2").arg(m_remotePath, m_localTarget));
}

DownloadJob::~DownloadJob()
{
    if (!isFinished())
        cancel();
}

void DownloadJob::start()
{
    if (!m_api)
        return fail(tr("not connected"));
    if (!m_isFolder)
        return downloadFile();
    if (QFileInfo::exists(m_localTarget))
        return fail(tr("%1 already exists; choose another name").arg(m_localTarget));
    const QString parent = QFileInfo(m_localTarget).absolutePath();
    // Staging next to the target, so the finished folder moves into place with a rename.
    m_staging =
        std::make_unique<QTemporaryDir>(parent + QStringLiteral("/.lizard-download-XXXXXX"));
    if (!m_staging->isValid())
        return fail(tr("cannot create a folder in %1: %2").arg(parent, m_staging->errorString()));
    packFolder();
}

void DownloadJob::downloadFile()
{
    auto progress = [this](qint64 bytes, qint64 total) { setProgress(bytes, total); };
    track(m_api->downloadFile(m_sandboxId, m_remotePath, m_localTarget, this, progress,
                              [this](client::Outcome<qint64> r) {
                                  if (isFinished())
                                      return;
                                  if (!r)
                                      return fail(r.error());
                                  setProgress(r.value(), r.value());
                                  finish(State::Done);
                              }));
}

void DownloadJob::packFolder()
{
    m_remoteArchive = QStringLiteral("/tmp/.lizard-download-%1.tar")
                          .arg(QRandomGenerator::global()->generate64(), 16, 16, QLatin1Char('0'));
    // The folder's contents, from inside it: a symlink to a folder downloads as that folder.
    const QStringList argv{QStringLiteral("tar"), QStringLiteral("-C"), m_remotePath,
                           QStringLiteral("-cf"), m_remoteArchive,      QStringLiteral("--"),
                           QStringLiteral(".")};
    client::ExecOptions opts;
    opts.timeoutMs = 600000;
    track(m_api->execArgv(
        m_sandboxId, argv, opts, this, [this](client::Outcome<client::ExecResult> r) {
            if (isFinished())
                return;
            if (!r)
                return fail(r.error());
            // GNU tar exits 1 when a file changed while it was read: the archive is still whole.
            if (r.value().exitCode != 0 && r.value().exitCode != 1)
                return fail(
                    tr("Packing %1 failed: %2").arg(m_remotePath, r.value().stderrText.trimmed()));
            downloadArchive();
        }));
}

void DownloadJob::downloadArchive()
{
    if (!m_api)
        return fail(tr("not connected"));
    auto progress = [this](qint64 bytes, qint64 total) { setProgress(bytes, total); };
    track(m_api->downloadFile(m_sandboxId, m_remoteArchive,
                              m_staging->filePath(QLatin1String(kArchiveName)), this, progress,
                              [this](client::Outcome<qint64> r) {
                                  if (isFinished())
                                      return;
                                  removeRemoteArchive();
                                  if (!r)
                                      return fail(r.error());
                                  unpack();
                              }));
}

void DownloadJob::unpack()
{
    const QString out = m_staging->filePath(QLatin1String(kUnpackDir));
    if (!QDir().mkpath(out))
        return fail(tr("cannot create %1").arg(out));
    m_tar = new QProcess(this);
    m_tar->setProcessChannelMode(QProcess::MergedChannels);
    connect(m_tar, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        if (isFinished())
            return;
        const QString output = QString::fromLocal8Bit(m_tar->readAll()).trimmed();
        m_tar->deleteLater();
        if (status != QProcess::NormalExit || code != 0)
            return fail(tr("Unpacking failed: %1")
                            .arg(output.isEmpty() ? tr("tar exited with %1").arg(code) : output));
        placeFolder();
    });
    connect(m_tar, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart && !isFinished())
            fail(tr("cannot run tar to unpack the folder: %1").arg(m_tar->errorString()));
    });
    // GNU tar drops leading '/' and refuses '..' in member names, and creates links that
    // point outside only after everything else: nothing lands outside the staging folder.
    m_tar->start(QStringLiteral("tar"),
                 {QStringLiteral("-xf"), m_staging->filePath(QLatin1String(kArchiveName)),
                  QStringLiteral("-C"), out, QStringLiteral("--no-same-owner")});
}

void DownloadJob::placeFolder()
{
    const QString out = m_staging->filePath(QLatin1String(kUnpackDir)); // the folder itself
    if (QFileInfo::exists(m_localTarget))
        return fail(tr("%1 already exists; choose another name").arg(m_localTarget));
    if (!QDir().rename(out, m_localTarget))
        return fail(tr("cannot move the folder to %1").arg(m_localTarget));
    setProgress(bytesTotal(), bytesTotal());
    finish(State::Done);
}

void DownloadJob::removeRemoteArchive()
{
    if (m_remoteArchive.isEmpty() || !m_api)
        return;
    // No context: the clean-up runs even if this job is gone by then.
    m_api->removeFile(m_sandboxId, m_remoteArchive, nullptr, [](client::Outcome<client::Unit>) {});
    m_remoteArchive.clear();
}

void DownloadJob::cleanUp()
{
    if (m_tar && m_tar->state() != QProcess::NotRunning) {
        m_tar->kill();
        m_tar->waitForFinished(2000);
    }
    // The archive may exist in the sandbox if tar was done (or still running) when this stopped.
    removeRemoteArchive();
    m_staging.reset(); // removes the staging folder and whatever it holds
}

} // namespace lizard::models::files
