#pragma once
// Keeps a SandboxFileModel in step with its sandbox: watches the model's root folder with
// fs.watch (recursive, unless the root is "/", whose tree holds /proc and /usr), drains the
// events every kPollMs and re-lists only the folders that changed, one listing per folder
// however many events it had (an overflow marker re-lists every shown folder). Where the
// server has no fs.watch (the cloud answers 501) or refuses this watch, it stops and the
// model keeps refreshing on demand.

#include "client/outcome.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QTimer>

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models::files {

class SandboxFileModel;

class FileChangeFeed : public QObject
{
    Q_OBJECT
public:
    enum class State {
        Off,         // no sandbox shown
        Starting,    // asking for a watcher (again, after a failure that may pass)
        Live,        // changes show by themselves
        Unsupported, // the server has no fs.watch here: refresh on demand
    };
    static constexpr int kPollMs = 250;
    static constexpr int kRetryMs = 2000;
    // A folder that keeps changing lists at most this often (a listing of 10,000 entries is
    // work for the server and for the app); its first change lists at once.
    static constexpr int kMinRelistMs = 500;

    // Follows `model` (its sandbox and root, as setLocation changes them).
    FileChangeFeed(client::LizardApi* api, SandboxFileModel* model, QObject* parent = nullptr);
    ~FileChangeFeed() override; // closes the watcher

    State state() const { return m_state; }

signals:
    void stateChanged(lizard::models::files::FileChangeFeed::State state);
    // After each drain that changed something: how many folders were asked to re-list.
    void foldersChanged(int folders);

private:
    void follow();
    void startWatch();
    void poll();
    void apply(const QList<client::FsEvent>& events);
    int relistDue(); // the folders waiting for kMinRelistMs whose time has come
    void closeWatcher();
    void setState(State state);

    QPointer<client::LizardApi> m_api;
    QPointer<SandboxFileModel> m_model;
    QTimer m_timer;
    QString m_sandboxId;
    QString m_root;
    QString m_watcherId;
    quint64 m_generation = 0; // answers for an earlier location are dropped
    bool m_inFlight = false;
    bool m_gap = false; // a poll failed since the last answered one
    QElapsedTimer m_clock;
    QHash<QString, qint64> m_listedAt; // folder → when it was last asked to list (m_clock)
    QSet<QString> m_due;               // folders changed since, waiting for their turn
    State m_state = State::Off;
};

} // namespace lizard::models::files
