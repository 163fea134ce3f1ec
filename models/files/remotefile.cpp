#include "models/files/remotefile.h"

#include "client/lizardapi.h"

namespace lizard::models::files {

using client::ApiError;
using client::FileEntry;
using client::Outcome;

void RemoteFile::open(client::LizardApi* api, const QString& sandboxId, const QString& path,
                      qint64 maxBytes, QObject* ctx, client::Done<Opened> done)
{
    if (!api)
        return done(ApiError::notConnected(QStringLiteral("Open %1").arg(path)));
    QPointer<client::LizardApi> guard(api);
    api->statFile(
        sandboxId, path, ctx, [guard, sandboxId, maxBytes, ctx, done](Outcome<FileEntry> st) {
            if (!st)
                return done(st.error());
            Opened opened{st.value(), {}, false};
            if (opened.entry.type == QLatin1String("dir") || opened.entry.size > maxBytes)
                return done(opened);
            if (!guard)
                return done(
                    ApiError::notConnected(QStringLiteral("Open %1").arg(opened.entry.path)));
            guard->readFile(sandboxId, opened.entry.path, ctx,
                            [opened, done](Outcome<QByteArray> r) mutable {
                                if (!r)
                                    return done(r.error());
                                opened.content = r.value();
                                opened.read = true;
                                done(opened);
                            });
        });
}

RemoteFile::RemoteFile(client::LizardApi* api, const QString& sandboxId, const FileEntry& entry,
                       QObject* parent)
    : QObject(parent), m_api(api), m_sandboxId(sandboxId), m_entry(entry)
{
}

void RemoteFile::checkUnchanged(client::Done<QString> done)
{
    if (!m_api)
        return done(ApiError::notConnected(QStringLiteral("Save %1").arg(m_entry.path)));
    m_api->statFile(m_sandboxId, m_entry.path, this, [this, done](Outcome<FileEntry> r) {
        if (!r && r.error().kind != ApiError::Kind::NotFound)
            return done(r.error());
        if (!r)
            return done(tr("%1 was deleted in the sandbox since you opened it.").arg(m_entry.path));
        if (r.value().modifiedAt != m_entry.modifiedAt || r.value().size != m_entry.size)
            return done(
                tr("%1 changed in the sandbox since you opened it (now %2 bytes, modified %3).")
                    .arg(m_entry.path)
                    .arg(r.value().size)
                    .arg(r.value().modifiedAt.toLocalTime().toString(Qt::ISODate)));
        done(QString());
    });
}

void RemoteFile::save(const QByteArray& bytes, client::Done<FileEntry> done)
{
    if (!m_api)
        return done(ApiError::notConnected(QStringLiteral("Save %1").arg(m_entry.path)));
    m_api->writeFile(m_sandboxId, m_entry.path, bytes, this, [this, done](Outcome<client::Unit> r) {
        if (!r)
            return done(r.error());
        if (!m_api)
            return done(ApiError::notConnected(QStringLiteral("Save %1").arg(m_entry.path)));
        // The new baseline: what the sandbox says now that our bytes are there.
        m_api->statFile(m_sandboxId, m_entry.path, this, [this, done](Outcome<FileEntry> st) {
            if (st)
                m_entry = st.value();
            done(std::move(st));
        });
    });
}

} // namespace lizard::models::files
