#pragma once
// The calls behind the Changes tab, for one sandbox at a time: its listing (with or without
// exclusions), both versions of one file (the template's and the sandbox's), and a revert
// (the template's file written back, or what the sandbox added removed). Answers for a
// sandbox no longer shown are dropped.

#include "client/outcome.h"
#include "client/types.h"

#include <QObject>
#include <optional>

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models::changes {

// Both versions of a file; a side the file does not have is empty (nullopt).
struct FileVersions
{
    QString path;
    std::optional<QByteArray> before; // the template's
    std::optional<QByteArray> after;  // the sandbox's
    QString error;                    // non-empty: one side could not be read
};

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

    void list(const QStringList& exclude);
    // `change` as listed: what it is decides which sides are read.
    void readVersions(const client::FileChange& change);
    void revert(const client::FileChange& change);

signals:
    void listed(const lizard::client::SandboxChanges& changes);
    void listFailed(const lizard::client::ApiError& error);
    void versionsRead(const lizard::models::changes::FileVersions& versions);
    void reverted(const QString& path);
    void revertFailed(const lizard::client::ApiError& error);

private:
    client::LizardApi* m_api = nullptr;
    QString m_sandboxId;
    int m_generation = 0;
};

} // namespace lizard::models::changes
