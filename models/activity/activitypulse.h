#pragma once
// Which sandboxes are active now: for each sandbox it is told about, it reads the new entries
// of its activity log every few seconds and remembers when its last command or code run
// ended. A sandbox is active while that was less than activeWindowMs() ago. A server without
// activity logs (404/501) makes it stop asking that sandbox.

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QTimer>

namespace lizard::client {
class LizardApi;
}

namespace lizard::models {

class ActivityPulse : public QObject
{
    Q_OBJECT
public:
    explicit ActivityPulse(QObject* parent = nullptr);

    void setApi(client::LizardApi* api); // not owned; forgets everything
    void setSandboxes(const QStringList& sandboxIds);
    void setInterval(int ms) { m_timer.setInterval(ms); }
    bool isActive(const QString& sandboxId) const;
    static constexpr qint64 activeWindowMs() { return 5000; }

signals:
    void changed(); // some sandbox became active or quiet

private:
    void poll();
    void check();

    struct State
    {
        qint64 since = 0;
        QDateTime lastEnd;
        bool inFlight = false;
        bool unsupported = false;
    };
    QPointer<client::LizardApi> m_api;
    QHash<QString, State> m_states;
    QSet<QString> m_active;
    QTimer m_timer;
};

} // namespace lizard::models
