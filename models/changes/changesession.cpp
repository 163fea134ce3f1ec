#include "models/changes/changesession.h"

#include "client/lizardapi.h"

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
    if (id != m_sandboxId)
        ++m_generation;
    m_sandboxId = id;
}

void ChangesSession::list(const QStringList& exclude)
{
    if (!ready())
        return;
    const int generation = ++m_generation;
    m_api->sandboxChanges(m_sandboxId, exclude, this,
                          [this, generation](client::Outcome<client::SandboxChanges> r) {
                              if (generation != m_generation)
                                  return;
                              if (r)
                                  emit listed(r.value());
                              else
                                  emit listFailed(r.error());
                          });
}

void ChangesSession::readVersions(const client::FileChange& change)
{
    if (!ready())
        return;
    // Both sides arrive separately; one signal once both are in.
    struct Pending
    {
        FileVersions versions;
        int left = 0;
    };
    auto pending = std::make_shared<Pending>();
    pending->versions.path = change.path;
    const int generation = m_generation;
    auto arrived = [this, pending, generation] {
        if (--pending->left == 0 && generation == m_generation)
            emit versionsRead(pending->versions);
    };
    const bool before = change.kind != QLatin1String("added");
    const bool after = change.kind != QLatin1String("deleted");
    pending->left = int(before) + int(after);
    if (before)
        m_api->templateOriginal(m_sandboxId, change.path, this,
                                [pending, arrived](client::Outcome<QByteArray> r) {
                                    if (r)
                                        pending->versions.before = r.value();
                                    else
                                        pending->versions.error = r.error().toDisplayString();
                                    arrived();
                                });
    if (after)
        m_api->readFile(m_sandboxId, change.path, this,
                        [pending, arrived](client::Outcome<QByteArray> r) {
                            if (r)
                                pending->versions.after = r.value();
                            else
                                pending->versions.error = r.error().toDisplayString();
                            arrived();
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

} // namespace lizard::models::changes
