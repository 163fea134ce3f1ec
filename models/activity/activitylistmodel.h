#pragma once
// The activity log of one sandbox as a list, oldest first, kept fresh while active: it asks
// the server for the entries after the last one it has, appends each answer as one batch
// (however many entries an agent made meanwhile), and asks again shortly after. A server
// without the route (the cloud: 404; lizard-local with --no-activity: 501) ends it with
// unavailableText().

#include "client/activitypage.h"

#include <QAbstractListModel>
#include <QDateTime>
#include <QPointer>
#include <QTimer>

namespace lizard::client {
class LizardApi;
class PendingCall;
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
    // Asks the server only while active (the tab is shown); a reactivation catches up at once.
    void setActive(bool active);
    void setPollInterval(int ms) { m_interval = ms; }

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    const nlohmann::json& entry(int row) const { return m_entries.at(size_t(row)); }
    const std::vector<nlohmann::json>& entries() const { return m_entries; }
    // Empty while the server records activity; otherwise why there is none.
    QString unavailableText() const { return m_unavailable; }
    // When the sandbox last ran a command or code (its exec's end), invalid if never.
    QDateTime lastActive() const { return m_lastActive; }

    static Group groupOf(const QString& kind);
    // One line for the list: "$ ls -la   exit 0", "wrote /tmp/a.txt (16 B)", "paused", …
    static QString summary(const nlohmann::json& entry);

signals:
    void entriesAppended(int first, int last);
    void unavailable(const QString& text);
    void errorOccurred(const lizard::client::ApiError& error);

private:
    void poll();
    void onPage(const QString& sandboxId, client::ActivityPage page);
    void schedule(int ms);

    QPointer<client::LizardApi> m_api;
    QString m_sandboxId;
    std::vector<nlohmann::json> m_entries;
    qint64 m_since = 0;
    bool m_active = false;
    bool m_inFlight = false;
    QPointer<client::PendingCall> m_call;
    QTimer m_timer;
    int m_interval = 250;
    QString m_unavailable;
    QDateTime m_lastActive;
    bool m_reportedError = false;
};

} // namespace lizard::models
