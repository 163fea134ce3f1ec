#pragma once
// Watches the sandbox a notebook is bound to: whether it runs, is paused or has ended (not found,
// killed, expired), and its deadline. While the notebook is in use (a cell ran or was edited in
// the last kActiveMinutes) and auto-extend is on, it moves the deadline forward before it passes.
// It also resumes a paused sandbox before a cell runs (ensureRunning).

#include <QDateTime>
#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <functional>

namespace lizard::client {
class LizardApi;
struct SandboxInfo;
} // namespace lizard::client

namespace lizard::notebook {

class SandboxWatch : public QObject
{
    Q_OBJECT
public:
    enum class State { Unknown, Running, Paused, Ended };
    Q_ENUM(State)
    // A notebook left alone this long is not "in use": someone at lunch keeps the sandbox for
    // half an hour, someone who went home does not keep paying for it all night.
    static constexpr int kActiveMinutes = 30;
    static constexpr int kExtendBeforeMs = 120000; // extend when less than this is left …
    static constexpr int kPollMs = 5000;           // … as seen by a poll this often

    explicit SandboxWatch(QObject* parent = nullptr);

    void setApi(client::LizardApi* api); // null: not connected, the state is Unknown
    void setSandbox(const QString& sandboxId);
    void setAutoExtend(bool on);
    bool autoExtend() const { return m_autoExtend; }
    // A cell was edited or ran; while busy (a cell runs) the notebook counts as in use.
    void noteActivity();
    void setBusy(bool busy);

    QString sandboxId() const { return m_sandboxId; }
    State state() const { return m_state; }
    QDateTime endAt() const { return m_endAt; } // invalid: no deadline (or not known yet)
    QString templateName() const { return m_template; }
    QString size() const { return m_size; }
    qint64 lifetimeMs() const { return m_lifetimeMs; } // as first seen: endAt - startedAt
    int extensions() const { return m_extensions; }

    // Asks the server now; then `done` (if any) runs with the state known.
    void checkNow(std::function<void()> done = {});
    // Before a run: an empty error once the sandbox runs (a paused one is resumed first, with
    // resuming() emitted), or why it cannot. Not connected: empty, the runner itself says so.
    void ensureRunning(std::function<void(QString error)> done);
    QString endedText() const;

signals:
    void changed(); // state, deadline or auto-extend changed
    void ended(const QString& sandboxId);
    void resuming();

private:
    void apply(const client::SandboxInfo& info);
    void setState(State state);
    void tick();
    void extend();
    void waitRunning(int triesLeft, std::function<void(QString)> done);
    bool inUse() const;

    QPointer<client::LizardApi> m_api;
    QString m_sandboxId;
    State m_state = State::Unknown;
    QDateTime m_endAt;
    QString m_template;
    QString m_size;
    qint64 m_lifetimeMs = 0;
    bool m_autoExtend = false;
    bool m_busy = false;
    bool m_extending = false;
    int m_extensions = 0;
    int m_generation = 0; // answers for an earlier sandbox are dropped
    QElapsedTimer m_lastActivity;
    QElapsedTimer m_lastCheck;
    QTimer m_poll;
    QTimer m_tick;
};

} // namespace lizard::notebook
