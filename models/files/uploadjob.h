#pragma once
// Uploads a local file, or a local folder with everything in it, into a sandbox folder: the
// folder tree is created first (mkdir -p, in batches), then each file streams up in turn.
// Symbolic links and special files are skipped (and counted in the final note).

#include "models/files/transferjob.h"

#include <QStringList>

namespace lizard::models::files {

class UploadJob : public TransferJob
{
    Q_OBJECT
public:
    UploadJob(client::LizardApi* api, const QString& sandboxId, const QString& localPath,
              const QString& remoteDir, QObject* parent = nullptr);

    void start() override;
    QString remoteTarget() const { return m_remoteTarget; } // where the file or folder lands

private:
    struct Item
    {
        QString local;
        QString remote;
        qint64 size = 0;
    };
    bool plan(QString* error);
    void makeDirs();
    void uploadNext();

    QString m_localPath;
    QString m_remoteDir;
    QString m_remoteTarget;
    QStringList m_dirs; // remote folders to create, parents first
    QList<Item> m_files;
    qsizetype m_next = 0;
    qint64 m_doneBefore = 0; // bytes of the files already uploaded
    qint64 m_total = 0;
    int m_skipped = 0;
};

} // namespace lizard::models::files
