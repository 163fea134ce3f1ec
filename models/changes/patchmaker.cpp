#include "models/changes/patchmaker.h"

#include "models/changes/fileversions.h"
#include "models/changes/unifieddiff.h"

#include <QDateTime>

namespace lizard::models::changes {

PatchMaker::PatchMaker(client::LizardApi* api, const QString& sandboxId, const QString& against,
                       const QList<client::FileChange>& changes, QObject* parent)
    : QObject(parent), m_api(api), m_sandboxId(sandboxId), m_against(against), m_changes(changes)
{
}

void PatchMaker::start()
{
    next();
}

void PatchMaker::leaveOut(const client::FileChange& change, const QString& why)
{
    m_leftOut << QStringLiteral("%1 (%2)").arg(change.path, why);
}

void PatchMaker::next()
{
    while (m_next < m_changes.size()) {
        const client::FileChange& change = m_changes[m_next];
        if (change.type == QLatin1String("dir"))
            ++m_next; // created or removed with the files in it
        else if (!change.was.isEmpty())
            leaveOut(m_changes[m_next++], tr("was a %1, now a %2").arg(change.was, change.type));
        else if (change.type != QLatin1String("file"))
            leaveOut(m_changes[m_next++], tr("a %1").arg(change.type));
        else if (change.size > kMaxFileBytes)
            leaveOut(m_changes[m_next++],
                     tr("%1 bytes, over %2 MiB").arg(change.size).arg(kMaxFileBytes >> 20));
        else
            break;
    }
    emit progress(m_next, int(m_changes.size()));
    if (m_next >= m_changes.size()) {
        QByteArray head =
            QStringLiteral("# The changes of sandbox %1 against %2, %3 files, "
                           "saved by lizard-desktop on %4.\n"
                           "# Apply them in / with `patch -p1 < FILE` or "
                           "`git apply FILE`.\n")
                .arg(m_sandboxId,
                     m_against.isEmpty() ? tr("its template") : tr("sandbox %1").arg(m_against))
                .arg(m_files)
                .arg(QDateTime::currentDateTimeUtc().toString(Qt::ISODate))
                .toUtf8();
        for (const QString& out : m_leftOut)
            head += "# Left out: " + out.toUtf8() + '\n';
        emit finished(head + m_body, m_files, m_leftOut);
        return;
    }
    const client::FileChange change = m_changes[m_next++];
    readFileVersions(m_api, m_sandboxId, m_against, change, this,
                     [this, change](const FileVersions& sides) {
                         if (!sides.error.isEmpty()) {
                             leaveOut(change, tr("not read: %1").arg(sides.error));
                             return next();
                         }
                         const QByteArray diff =
                             unifiedDiff(change.path, sides.before, sides.after, change.mode);
                         if (m_body.size() + diff.size() > kMaxPatchBytes) {
                             emit failed(tr("The patch would be larger than %1 MiB (at %2): too "
                                            "large to save as one.")
                                             .arg(kMaxPatchBytes >> 20)
                                             .arg(change.path));
                             return;
                         }
                         if (diff.isEmpty())
                             leaveOut(change, tr("the same bytes: only its mode or times changed"));
                         m_body += diff;
                         m_files += diff.isEmpty() ? 0 : 1;
                         next();
                     });
}

} // namespace lizard::models::changes
