#pragma once
// The lizard-local of another computer, reached over SSH: one ssh master connection (OpenSSH's
// control socket, in a private folder), over which the app finds or starts lizard-local there
// (findserver.sh: its server.json and api-key, read over the channel and kept in memory only)
// and forwards its API port to a free loopback port here; each address of its port proxy that a
// preview or a screen needs is forwarded the same way, through the same connection, before the
// API call that hands it out answers (client::ProxyRoute). When ssh ends (a network drop, the
// host's restart), the tunnel says so and connects again, 1 s, 2 s, 4 s… up to 30 s apart, onto
// the same local port, so the same LizardApi works again once the host answers.

#include "app/ssh/hostkeys.h"
#include "app/ssh/sshtarget.h"
#include "client/proxyroute.h"

#include <QPointer>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTimer>
#include <memory>

namespace lizard::app::ssh {

struct RemoteServer
{
    QString url;        // http://127.0.0.1:<local port>: the API through the tunnel
    QString apiKey;     // read over SSH, never stored on this computer
    int remotePort = 0; // the API's port on the host
    int proxyPort = 0;  // the port proxy's port on the host
    QString version;
    QString how; // "running", "unit" (its systemd user unit) or "started"
};

class SshTunnel : public client::ProxyRoute
{
    Q_OBJECT
public:
    explicit SshTunnel(SshTarget target, QObject* parent = nullptr);
    ~SshTunnel() override; // ends the ssh connection; lizard-local keeps running on the host

    const SshTarget& target() const { return m_target; }
    void start();
    // After hostKeyUnknown(): the user's answer. Yes adds the key to their known_hosts and
    // connects; no ends with failed().
    void answerHostKey(bool trust);
    bool isUp() const { return m_state == State::Up; }
    qint64 masterPid() const; // the ssh master process (tests cut the network by killing it)
    void setRetryLimitS(int seconds) { m_maxBackoffS = seconds; }

    void open(const QUrl& url, QObject* ctx, std::function<void(QString)> done) override;

signals:
    // The first connection's steps; a reconnection says itself through dropped() and restored().
    void progress(const QString& text);
    void hostKeyUnknown(const QString& host, const QStringList& fingerprints);
    void ready(const lizard::app::ssh::RemoteServer& server); // the first time
    // ssh ended after the tunnel was up; another attempt follows in `retryInS`.
    void dropped(const QString& message, int retryInS);
    // Up again. `changed`: lizard-local on the host is another one (restarted on another port
    // or with another key), so `server` needs a new client.
    void restored(const lizard::app::ssh::RemoteServer& server, bool changed);
    void failed(const QString& message); // given up (changed host key, refused login, …)

private:
    enum class State { Idle, Connecting, Up, Waiting, Failed };
    void launchMaster();
    void pollMaster();
    void masterEnded(quint64 generation);
    void discover();
    void forwardApi(int attemptsLeft);
    void reforward(QStringList pending);
    void becameUp();
    void giveUp(const QString& message);
    void retryLater(const QString& message);
    void stopMaster();
    // ssh over the master connection: `args` after the control options and before the host.
    void runOverMaster(const QStringList& args, const QByteArray& input,
                       std::function<void(int code, QByteArray out, QByteArray err)> done,
                       int timeoutMs = 15000);
    QString controlPath() const;

    SshTarget m_target;
    HostKeys m_hostKeys;
    PresentedKey m_presented;
    State m_state = State::Idle;
    bool m_everUp = false;
    quint64 m_generation = 0;
    std::unique_ptr<QTemporaryDir> m_controlDir;
    QPointer<QProcess> m_master;
    QTimer m_poll;
    QTimer m_retry;
    qint64 m_masterStarted = 0;
    int m_backoffS = 1;
    int m_maxBackoffS = 30;
    int m_localPort = 0;
    RemoteServer m_server;
    RemoteServer m_previous;
    QSet<QString> m_forwards; // "127.a.b.c:port" of the port proxy, forwarded as is
};

} // namespace lizard::app::ssh

Q_DECLARE_METATYPE(lizard::app::ssh::RemoteServer)
