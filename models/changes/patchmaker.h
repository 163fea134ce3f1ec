#pragma once
// The Changes tab's "Save as patch…": the listed changes of a sandbox as one git-style patch
// (unifieddiff.h), each file's two versions read in turn (the template's or the other
// sandbox's or snapshot's, and the sandbox's). What a patch cannot carry is left out and said,
// in the patch's head and in finished(): folders (implied by their files), symbolic links and
// special files, a path that changed type, a file larger than kMaxFileBytes, a file that could
// not be read.

#include "client/types.h"

#include <QObject>

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models::changes {

class PatchMaker : public QObject
{
    Q_OBJECT
public:
    static constexpr qint64 kMaxFileBytes = 16 << 20;
    static constexpr qint64 kMaxPatchBytes = 64 << 20;

    // `against`: "" (the template), a snapshot's or another sandbox's id, as the listing was
    // made.
    PatchMaker(client::LizardApi* api, const QString& sandboxId, const QString& against,
               const QList<client::FileChange>& changes, QObject* parent = nullptr);
    void start();

signals:
    void progress(int done, int total);
    // `patch`: the head (what it is, how to apply it, what was left out) and the diffs.
    void finished(const QByteArray& patch, int files, const QStringList& leftOut);
    void failed(const QString& why);

private:
    void next();
    void leaveOut(const client::FileChange& change, const QString& why);

    client::LizardApi* m_api;
    const QString m_sandboxId;
    const QString m_against;
    QList<client::FileChange> m_changes;
    int m_next = 0;
    int m_files = 0;
    QByteArray m_body;
    QStringList m_leftOut;
};

} // namespace lizard::models::changes
