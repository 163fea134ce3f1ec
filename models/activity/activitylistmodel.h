#pragma once
// The activity log of one sandbox as a list, oldest first, kept live while active: it follows
// the server's activity stream from the last entry it has and appends each batch the network
// brings as one insertion (however many entries an agent made meanwhile). A dropped connection
// (a server restart, a stall) is followed again from the last seq after a short backoff, so no
// entry is lost or shown twice. A server without the route (the cloud: 404; lizard-local with
// --no-activity: 501) ends it with unavailableText(). Every server with the route streams it
// (lizard-local has offered SSE on it from the start), so there is no polling fallback.

#include "client/activitypage.h"

#include <QAbstractListModel>
#include <QDateTime>
#include <QPointer>
#include <QTimer>

namespace lizard::client {
class ActivityStream;
class LizardApi;
struct ApiError;
} // namespace lizard::client

namespace lizard::models {

class ActivityListModel : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Role {
        KindRole = Qt::UserRole + 1, // "exec", "runCode", "fileWrite", "pause", …
        GroupRole,                   // Group as int
        SeqRole,
        TimeRole,         // QDateTime (UTC)
        SearchRole,       // every text of the entry a search looks at
        ExitCodeRole,     // exec and runCode: int, or invalid
        HousekeepingRole, // bool: a client's own background command (the app's port scan)
    };
    enum class Group { Command = 1, Code = 2, File = 4, Lifecycle = 8 };

    explicit ActivityListModel(QObject* parent = nullptr);

    void setApi(client::LizardApi* api); // not owned
    // Starts over with the sandbox's log (empty: none).
    void setSandbox(const QString& sandboxId);
    QString sandboxId() const { return m_sandboxId; }
    // Follows the server only while active (the tab is shown); a reactivation catches up at once.
    void setActive(bool active);
    // Following the stream now (false while reconnecting, inactive, ended or unavailable).
    bool isFollowing() const { return m_stream != nullptr; }

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    const client::ActivityEntry& entry(int row) const { return m_entries.at(size_t(row)); }
    const std::vector<client::ActivityEntry>& entries() const { return m_entries; }
    // Empty while the server records activity; otherwise why there is none.
    QString unavailableText() const { return m_unavailable; }
    // When the sandbox last ran a command or code (its exec's end), invalid if never.
    QDateTime lastActive() const { return m_lastActive; }

    static Group groupOf(const QString& kind);
    // One line for the list: "$ ls -la   exit 0", "wrote /tmp/a.txt (16 B)", "paused", …
    static QString summary(const client::ActivityEntry& entry);

signals:
    void entriesAppended(int first, int last);
    void unavailable(const QString& text);
    void errorOccurred(const lizard::client::ApiError& error);

private:
    void follow();
    void stopFollowing();
    void dropStream();
    void onBatch(const client::ActivityPage& batch);
    void onEnded();
    void onFailed(const client::ApiError& error);
    void retryLater();

    QPointer<client::LizardApi> m_api;
    QString m_sandboxId;
    std::vector<client::ActivityEntry> m_entries;
    qint64 m_since = 0;
    bool m_active = false;
    client::ActivityStream* m_stream = nullptr; // a child of this
    QTimer m_retry;
    int m_backoffMs = 0;
    int m_failures = 0;          // in a row, since the last batch
    bool m_sandboxEnded = false; // its `kill` entry came: nothing more will
    QString m_unavailable;
    QDateTime m_lastActive;
    bool m_reportedError = false;
};

} // namespace lizard::models
