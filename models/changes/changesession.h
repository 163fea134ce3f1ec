#pragma once
// The calls behind the Changes tab, for one sandbox at a time: its listing (with or without
// exclusions), both versions of one file (the template's and the sandbox's), and a revert
// (the template's file written back, or what the sandbox added removed). The listing may
// compare with a snapshot or another sandbox instead of the template; a file's "before" side is
// then the snapshot's or the other sandbox's. The changes against the template can be saved as
// a tar (an image layer). Answers for a sandbox no longer shown are dropped.

#include "client/outcome.h"
#include "client/types.h"
#include "models/changes/fileversions.h"

#include <QObject>

namespace lizard::client {
class LizardApi;
class PendingCall;
} // namespace lizard::client

namespace lizard::models::changes {

class ChangesSession : public QObject
{
    Q_OBJECT
public:
    explicit ChangesSession(QObject* parent = nullptr);

    void setApi(client::LizardApi* api); // not owned; null: disconnected
    client::LizardApi* api() const { return m_api; }
    void setSandboxId(const QString& id);
    const QString& sandboxId() const { return m_sandboxId; }
    bool ready() const { return m_api && !m_sandboxId.isEmpty(); }

    // What the listing compares with: "" (the template), a snapshot's or another sandbox's id.
    void setAgainst(const QString& against);
    const QString& against() const { return m_against; }
    void list(const QStringList& exclude);
    // What the sandbox can be compared with: its project's ready snapshots and its other
    // running or paused sandboxes of the same template. candidatesListed() follows.
    void listCandidates();
    // `change` as listed: what it is decides which sides are read.
    void readVersions(const client::FileChange& change);
    void revert(const client::FileChange& change);
    // The changes against the template, after `exclude`, as a tar in `file` (written whole or
    // not at all): archiveSaved() or archiveFailed(). cancelArchive() stops it.
    void saveArchive(const QStringList& exclude, const QString& file);
    void cancelArchive();
    bool savingArchive() const { return m_archive != nullptr; }

signals:
    void listed(const lizard::client::SandboxChanges& changes);
    // [id, label] pairs, snapshots first.
    void candidatesListed(const QList<QPair<QString, QString>>& candidates);
    void listFailed(const lizard::client::ApiError& error);
    void versionsRead(const lizard::models::changes::FileVersions& versions);
    void reverted(const QString& path);
    void revertFailed(const lizard::client::ApiError& error);
    void archiveProgress(qint64 bytes);
    void archiveSaved(const QString& file, qint64 bytes);
    void archiveFailed(const lizard::client::ApiError& error);

private:
    client::LizardApi* m_api = nullptr;
    QString m_sandboxId;
    QString m_against;
    int m_generation = 0;
    client::PendingCall* m_archive = nullptr;
};

} // namespace lizard::models::changes
