#pragma once
// Downloads a sandbox file to a local path, or a sandbox folder as a local folder: the folder
// is packed with tar inside the sandbox (into /tmp there), the archive streams down, tar
// unpacks it into a fresh staging folder next to the target, and the folder is moved into
// place. The sandbox's temporary archive is removed whatever happens. An existing local target
// is never overwritten for folders (the save dialog asked about files).

#include "models/files/transferjob.h"

#include <QPointer>
#include <memory>

class QProcess;
class QTemporaryDir;

namespace lizard::models::files {

class DownloadJob : public TransferJob
{
    Q_OBJECT
public:
    DownloadJob(client::LizardApi* api, const QString& sandboxId, const QString& remotePath,
                bool isFolder, const QString& localTarget, QObject* parent = nullptr);
    ~DownloadJob() override;

    void start() override;
    QString localTarget() const { return m_localTarget; }

private:
    void downloadFile();
    void packFolder();
    void downloadArchive();
    void unpack();
    void placeFolder();
    void removeRemoteArchive();
    void cleanUp() override;

    QString m_remotePath;
    bool m_isFolder;
    QString m_localTarget;
    QString m_remoteArchive;
    std::unique_ptr<QTemporaryDir> m_staging;
    QPointer<QProcess> m_tar;
};

} // namespace lizard::models::files
