#pragma once
// The state of one sandbox's desktop as the Screen tab shows it: whether the sandbox has one
// (the desktop template), whether it runs, at what size, and the viewer URLs. Read from the
// server while followed (an agent may start or stop its desktop at any time), and changed by
// start() and stop(). Also takes a screenshot the way the SDK does: the in-sandbox
// `lizard-desktop screenshot --path`, then the file. No widgets.

#include "client/outcome.h"
#include "client/pendingcall.h"

#include <QObject>
#include <QPointer>
#include <QSize>
#include <QTimer>
#include <functional>

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models {

class DesktopSession : public QObject
{
    Q_OBJECT
public:
    enum class Support { Unknown, Yes, No };

    explicit DesktopSession(QObject* parent = nullptr);

    void setBackend(client::LizardApi* api); // not owned; null: disconnected
    void setSandbox(const QString& sandboxId);
    // While followed, the state is read again every intervalMs; the first read is at once.
    void setFollowing(bool on);
    void setPollInterval(int intervalMs) { m_poll.setInterval(intervalMs); }
    void refresh();

    void start(QSize size); // invalid size: the server's default
    void stop();
    // A PNG of the screen as it is now, at the desktop's own size.
    using ShotDone = std::function<void(client::Outcome<QByteArray>)>;
    void takeScreenshot(ShotDone done);

    QString sandboxId() const { return m_sandboxId; }
    Support support() const { return m_support; }
    const client::DesktopInfo& info() const { return m_info; }
    bool isRunning() const { return m_support == Support::Yes && m_info.running; }
    bool isBusy() const { return m_busy; }        // a start or a stop is under way
    QString problem() const { return m_problem; } // the last failure to read or change; empty: none
    QString unsupportedReason() const { return m_unsupported; }

signals:
    void changed(); // anything above
    void
    failed(const lizard::client::ApiError& error); // a start, stop or screenshot the user asked for

private:
    void apply(const client::Outcome<client::DesktopInfo>& outcome, bool asked);
    void setBusy(bool busy);
    bool beginChange(); // false: no sandbox, or a change under way

    QPointer<client::LizardApi> m_api;
    QString m_sandboxId;
    Support m_support = Support::Unknown;
    client::DesktopInfo m_info;
    QString m_problem;
    QString m_unsupported;
    bool m_busy = false;
    QPointer<client::PendingCall> m_read;
    QTimer m_poll;
    QTimer m_readLimit;
};

} // namespace lizard::models
