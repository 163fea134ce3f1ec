#include "models/changes/patchmaker.h"

#include "client/lizardapi.h"
#include "models/changes/unifieddiff.h"

#include <QDateTime>
#include <memory>
#include <optional>

namespace lizard::models::changes {

PatchMaker::PatchMaker(client::LizardApi* api, const QString& sandboxId, const QString& against,
                       const QList<client::FileChange>& changes, QObject* parent)
    : QObject(parent), m_api(api), m_sandboxId(sandboxId), m_against(against), m_changes(changes)
{
}

void PatchMaker::start()
{
    if (m_against.startsWith(QLatin1String("snap_"))) {
        emit failed(tr("A patch needs the snapshot's version of each file, and a snapshot's files "
                       "are not read one by one: compare with the template or a sandbox."));
        return;
    }
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
    struct Sides
    {
        std::optional<QByteArray> before, after;
        QString error;
        int pending = 0;
    };
    auto sides = std::make_shared<Sides>();
    const bool readBefore = change.kind != QLatin1String("added");
    const bool readAfter = change.kind != QLatin1String("deleted");
    sides->pending = int(readBefore) + int(readAfter);
    const auto arrived = [this, sides, change] {
        if (--sides->pending > 0)
            return;
        if (!sides->error.isEmpty()) {
            leaveOut(change, tr("not read: %1").arg(sides->error));
        } else {
            const QByteArray diff =
                unifiedDiff(change.path, sides->before, sides->after, change.mode);
            if (m_body.size() + diff.size() > kMaxPatchBytes) {
                emit failed(tr("The patch would be larger than %1 MiB (at %2): too large to "
                               "save as one.")
                                .arg(kMaxPatchBytes >> 20)
                                .arg(change.path));
                return;
            }
            if (diff.isEmpty())
                leaveOut(change, tr("the same bytes: only its mode or times changed"));
            m_body += diff;
            m_files += diff.isEmpty() ? 0 : 1;
        }
        next();
    };
    const auto into = [sides, arrived](std::optional<QByteArray> Sides::*side) {
        return [sides, arrived, side](client::Outcome<QByteArray> r) {
            if (r)
                (*sides).*side = r.value();
            else
                sides->error = r.error().toDisplayString();
            arrived();
        };
    };
    if (readBefore && m_against.startsWith(QLatin1String("sb_")))
        m_api->readFile(m_against, change.path, this, into(&Sides::before));
    else if (readBefore)
        m_api->templateOriginal(m_sandboxId, change.path, this, into(&Sides::before));
    if (readAfter)
        m_api->readFile(m_sandboxId, change.path, this, into(&Sides::after));
}

} // namespace lizard::models::changes
