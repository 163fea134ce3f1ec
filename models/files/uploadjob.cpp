#include "models/files/uploadjob.h"

#include "client/lizardapi.h"
#include "models/files/remotepath.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>

namespace lizard::models::files {

namespace {
constexpr int kDirsPerCall = 200; // keeps each mkdir's argv well under ARG_MAX
}

UploadJob::UploadJob(client::LizardApi* api, const QString& sandboxId, const QString& localPath,
                     const QString& remoteDir, QObject* parent)
    : TransferJob(api, sandboxId, Direction::Upload, parent),
      m_localPath(QFileInfo(localPath).absoluteFilePath()),
      m_remoteDir(RemotePath::clean(remoteDir))
{
    m_remoteTarget = RemotePath::join(m_remoteDir, QFileInfo(m_localPath).fileName());
    setTitle(tr("Upload %1 → %2").arg(QFileInfo(m_localPath).fileName(), m_remoteDir));
    setChangedRemoteDir(m_remoteDir);
}

bool UploadJob::plan(QString* error)
{
    const QFileInfo top(m_localPath);
    if (!top.exists()) {
        *error = tr("%1 does not exist").arg(m_localPath);
        return false;
    }
    if (top.isFile()) {
        m_files.append({m_localPath, m_remoteTarget, top.size()});
        m_total = top.size();
        return true;
    }
    if (!top.isDir()) {
        *error = tr("%1 is neither a file nor a folder").arg(m_localPath);
        return false;
    }
    m_dirs.append(m_remoteTarget);
    const QDir base(m_localPath);
    QDirIterator it(m_localPath,
                    QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories); // does not follow symlinked folders
    while (it.hasNext()) {
        const QFileInfo fi = it.nextFileInfo();
        const QString rel = base.relativeFilePath(fi.filePath());
        const QString remote = RemotePath::join(m_remoteTarget, rel);
        if (fi.isSymLink() || (!fi.isDir() && !fi.isFile())) {
            ++m_skipped;
        } else if (fi.isDir()) {
            m_dirs.append(remote);
        } else {
            m_files.append({fi.filePath(), remote, fi.size()});
            m_total += fi.size();
        }
    }
    return true;
}

void UploadJob::start()
{
    QString error;
    if (!plan(&error))
        return fail(error);
    setProgress(0, m_total);
    makeDirs();
}

void UploadJob::makeDirs()
{
    if (m_dirs.isEmpty())
        return uploadNext();
    if (!m_api)
        return fail(tr("not connected"));
    const QStringList batch = m_dirs.mid(0, kDirsPerCall);
    m_dirs.remove(0, batch.size());
    QStringList argv{QStringLiteral("mkdir"), QStringLiteral("-p"), QStringLiteral("--")};
    argv += batch;
    track(
        m_api->execArgv(m_sandboxId, argv, {}, this, [this](client::Outcome<client::ExecResult> r) {
            if (isFinished())
                return;
            if (!r)
                return fail(r.error());
            if (r.value().exitCode != 0)
                return fail(tr("Create folders failed: %1").arg(r.value().stderrText.trimmed()));
            makeDirs();
        }));
}

void UploadJob::uploadNext()
{
    if (m_next >= m_files.size()) {
        const QString note = m_skipped > 0
                                 ? tr("%n link(s) or special file(s) skipped", nullptr, m_skipped)
                                 : QString();
        return finish(State::Done, note);
    }
    if (!m_api)
        return fail(tr("not connected"));
    const Item item = m_files.at(m_next);
    auto progress = [this](qint64 bytes, qint64) { setProgress(m_doneBefore + bytes, m_total); };
    track(m_api->uploadFile(m_sandboxId, item.local, item.remote, this, progress,
                            [this, item](client::Outcome<qint64> r) {
                                if (isFinished())
                                    return;
                                if (!r)
                                    return fail(r.error());
                                m_doneBefore += item.size;
                                setProgress(m_doneBefore, m_total);
                                ++m_next;
                                uploadNext();
                            }));
}

} // namespace lizard::models::files
