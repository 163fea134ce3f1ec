#include "models/changes/changesession.h"

#include "client/lizardapi.h"
#include "client/pendingcall.h"

#include <memory>

namespace lizard::models::changes {

ChangesSession::ChangesSession(QObject* parent) : QObject(parent) {}

void ChangesSession::setApi(client::LizardApi* api)
{
    m_api = api;
    ++m_generation;
}

void ChangesSession::setSandboxId(const QString& id)
{
    if (id != m_sandboxId) {
        ++m_generation;
        m_against.clear();
    }
    m_sandboxId = id;
}

void ChangesSession::setAgainst(const QString& against)
{
    if (against != m_against)
        ++m_generation;
    m_against = against;
}

void ChangesSession::listCandidates()
{
    if (!ready())
        return;
    const int generation = m_generation;
    const QString self = m_sandboxId;
    m_api->getSandbox(
        self, this, [this, generation, self](client::Outcome<client::SandboxInfo> me) {
            if (!me || generation != m_generation)
                return;
            const QString project = me.value().projectId;
            const QString templateName = me.value().templateName;
            auto found = std::make_shared<QList<QPair<QString, QString>>>();
            m_api->listSnapshots(
                project, this,
                [this, generation, self, project, templateName,
                 found](client::Outcome<QList<client::Snapshot>> snaps) {
                    if (generation != m_generation)
                        return;
                    if (snaps)
                        for (const client::Snapshot& s : snaps.value())
                            if (s.status != QLatin1String("building") &&
                                s.status != QLatin1String("failed"))
                                found->append(
                                    {s.id,
                                     tr("Snapshot “%1”").arg(s.name.isEmpty() ? s.id : s.name)});
                    m_api->listSandboxes(
                        project, this,
                        [this, generation, self, templateName,
                         found](client::Outcome<QList<client::SandboxInfo>> sbs) {
                            if (generation != m_generation)
                                return;
                            if (sbs)
                                for (const client::SandboxInfo& s : sbs.value())
                                    if (s.sandboxId != self && s.templateName == templateName)
                                        found->append(
                                            {s.sandboxId, tr("Sandbox %1").arg(s.sandboxId)});
                            emit candidatesListed(*found);
                        });
                });
        });
}

void ChangesSession::list(const QStringList& exclude)
{
    if (!ready())
        return;
    const int generation = ++m_generation;
    m_api->sandboxChanges(
        m_sandboxId, exclude, this,
        [this, generation](client::Outcome<client::SandboxChanges> r) {
            if (generation != m_generation)
                return;
            if (r)
                emit listed(r.value());
            else
                emit listFailed(r.error());
        },
        m_against);
}

void ChangesSession::readVersions(const client::FileChange& change)
{
    if (!ready())
        return;
    const int generation = m_generation;
    readFileVersions(m_api, m_sandboxId, m_against, change, this,
                     [this, generation](const FileVersions& versions) {
                         if (generation == m_generation)
                             emit versionsRead(versions);
                     });
}

void ChangesSession::revert(const client::FileChange& change)
{
    if (!ready())
        return;
    const QString id = m_sandboxId, path = change.path;
    auto finished = [this, path](const client::Outcome<client::Unit>& r) {
        if (r)
            emit reverted(path);
        else
            emit revertFailed(r.error());
    };
    if (change.kind == QLatin1String("added")) {
        m_api->removeFile(id, path, this, finished);
        return;
    }
    m_api->templateOriginal(id, path, this,
                            [this, id, path, finished](client::Outcome<QByteArray> r) {
                                if (!r)
                                    return emit revertFailed(r.error());
                                m_api->writeFile(id, path, r.value(), this, finished);
                            });
}

void ChangesSession::saveArchive(const QStringList& exclude, const QString& file)
{
    if (!ready() || m_archive)
        return;
    m_archive = m_api->downloadChangesArchive(
        m_sandboxId, exclude, file, this,
        [this](qint64 bytes, qint64) { emit archiveProgress(bytes); },
        [this, file](client::Outcome<qint64> r) {
            m_archive = nullptr;
            if (r)
                emit archiveSaved(file, r.value());
            else
                emit archiveFailed(r.error());
        });
}

void ChangesSession::cancelArchive()
{
    if (m_archive)
        m_archive->cancel();
}

} // namespace lizard::models::changes
