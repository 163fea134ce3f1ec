#pragma once
// What the files panel does to a sandbox's files: new folder, rename, move, delete. Each
// operation checks its input first (names, existing targets: nothing is overwritten silently),
// calls the API, and refreshes the folders it changed in the SandboxFileModel.

#include "client/outcome.h"

#include <QObject>
#include <QPointer>

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models::files {

class SandboxFileModel;

class FileOperations : public QObject
{
    Q_OBJECT
public:
    FileOperations(client::LizardApi* api, SandboxFileModel* model, QObject* parent = nullptr);

    QString sandboxId() const;

    void makeDir(const QString& parentDir, const QString& name);
    void rename(const QString& path, const QString& newName);
    // destination: an existing folder (the item moves into it) or a new full path.
    void move(const QString& path, const QString& destination);
    void remove(const QString& path);
    // Tell the model a folder changed (e.g. after an upload into it).
    void changed(const QString& dirPath);

signals:
    void succeeded(const QString& message);
    void failed(const lizard::client::ApiError& error);

private:
    void moveTo(const QString& from, const QString& to, const QString& message);
    void fail(const QString& what, const QString& message);

    QPointer<client::LizardApi> m_api;
    QPointer<SandboxFileModel> m_model;
};

} // namespace lizard::models::files
