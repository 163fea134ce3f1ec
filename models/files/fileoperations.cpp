#include "models/files/fileoperations.h"

#include "client/lizardapi.h"
#include "models/files/remotepath.h"
#include "models/files/sandboxfilemodel.h"

namespace lizard::models::files {

using client::ApiError;
using client::FileEntry;
using client::Outcome;
using client::Unit;

FileOperations::FileOperations(client::LizardApi* api, SandboxFileModel* model, QObject* parent)
    : QObject(parent), m_api(api), m_model(model)
{
}

QString FileOperations::sandboxId() const
{
    return m_model ? m_model->sandboxId() : QString();
}

void FileOperations::fail(const QString& what, const QString& message)
{
    ApiError e;
    e.kind = ApiError::Kind::InvalidRequest;
    e.what = what;
    e.message = message;
    emit failed(e);
}

void FileOperations::changed(const QString& dirPath)
{
    if (m_model)
        m_model->refreshPath(RemotePath::clean(dirPath));
}

void FileOperations::makeDir(const QString& parentDir, const QString& name)
{
    if (const QString why = RemotePath::checkName(name); !why.isEmpty())
        return fail(tr("Create folder"), why);
    if (!m_api || sandboxId().isEmpty())
        return fail(tr("Create folder"), tr("no sandbox"));
    const QString path = RemotePath::join(parentDir, name);
    m_api->makeDir(sandboxId(), path, this, [this, path](Outcome<Unit> r) {
        if (!r)
            return emit failed(r.error());
        changed(RemotePath::parentOf(path));
        emit succeeded(tr("Created %1").arg(path));
    });
}

void FileOperations::rename(const QString& path, const QString& newName)
{
    if (const QString why = RemotePath::checkName(newName); !why.isEmpty())
        return fail(tr("Rename"), why);
    const QString to = RemotePath::join(RemotePath::parentOf(path), newName);
    if (to == RemotePath::clean(path))
        return;
    moveTo(path, to, tr("Renamed %1 to %2").arg(RemotePath::fileName(path), newName));
}

void FileOperations::move(const QString& path, const QString& destination)
{
    if (!m_api || sandboxId().isEmpty())
        return fail(tr("Move"), tr("no sandbox"));
    if (destination.trimmed().isEmpty())
        return fail(tr("Move"), tr("the destination is empty"));
    const QString from = RemotePath::clean(path);
    const QString dest = RemotePath::clean(destination);
    // An existing folder receives the item; anything else is the new path itself.
    m_api->statFile(sandboxId(), dest, this, [this, from, dest](Outcome<FileEntry> r) {
        if (r && r.value().type == QLatin1String("dir"))
            return moveTo(from, RemotePath::join(dest, RemotePath::fileName(from)),
                          tr("Moved %1 to %2").arg(from, dest));
        if (!r && r.error().kind != ApiError::Kind::NotFound)
            return emit failed(r.error());
        moveTo(from, dest, tr("Moved %1 to %2").arg(from, dest));
    });
}

void FileOperations::moveTo(const QString& from, const QString& to, const QString& message)
{
    if (!m_api || sandboxId().isEmpty())
        return fail(tr("Move"), tr("no sandbox"));
    if (to == from || RemotePath::isInside(to, from))
        return fail(tr("Move"), tr("cannot move %1 into itself").arg(from));
    const QString id = sandboxId();
    // Never overwrite: the API's move replaces an existing target.
    m_api->statFile(id, to, this, [this, id, from, to, message](Outcome<FileEntry> existing) {
        if (existing)
            return fail(tr("Move"), tr("%1 already exists").arg(to));
        if (existing.error().kind != ApiError::Kind::NotFound)
            return emit failed(existing.error());
        if (!m_api)
            return;
        m_api->moveFile(id, from, to, this, [this, from, to, message](Outcome<Unit> r) {
            if (!r)
                return emit failed(r.error());
            changed(RemotePath::parentOf(from));
            if (RemotePath::parentOf(to) != RemotePath::parentOf(from))
                changed(RemotePath::parentOf(to));
            emit succeeded(message);
        });
    });
}

void FileOperations::remove(const QString& path)
{
    if (!m_api || sandboxId().isEmpty())
        return fail(tr("Delete"), tr("no sandbox"));
    const QString clean = RemotePath::clean(path);
    if (clean == QLatin1String("/"))
        return fail(tr("Delete"), tr("refusing to delete /"));
    m_api->removeFile(sandboxId(), clean, this, [this, clean](Outcome<Unit> r) {
        if (!r)
            return emit failed(r.error());
        changed(RemotePath::parentOf(clean));
        emit succeeded(tr("Deleted %1").arg(clean));
    });
}

} // namespace lizard::models::files
