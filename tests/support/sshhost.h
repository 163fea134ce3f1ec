#pragma once
// Test fixture: another computer reachable over SSH, on this machine. A network namespace of
// the test's own behind a veth pair (root only: `ip netns`) runs a real sshd (Debian's
// openssh-server, as a child started with -D -e, its own host key, sshd_config and
// authorized_keys) for the current user; what a session starts there (lizard-local, its
// sandboxes and port proxy) listens on that namespace's loopback, out of this machine's reach
// except through SSH. The client side gets an ssh configuration of its own (known_hosts,
// identity, no agent), for LIZARD_TEST_SSH_CONFIG, so the user's ~/.ssh is never read or written.

#include <QProcess>
#include <QString>
#include <QTemporaryDir>
#include <memory>

namespace lizard::test {

class SshHost
{
public:
    SshHost();
    ~SshHost(); // stop()

    // Keys, configurations, the namespace and sshd. False with *why (sshd missing, not root…).
    bool start(QString* why);
    // Ends what sessions left on the host (lizard-local after its sandboxes are deleted,
    // sessions), sshd, and the namespace.
    void stop();
    // The host gets a new host key (a reinstalled host, or someone in between), sshd restarts.
    bool replaceHostKey(QString* why);

    QString destination() const { return m_user + QLatin1Char('@') + m_address; }
    QString address() const { return m_address; }
    int port() const { return 2222; }
    QString clientConfig() const;       // ssh -F file
    QString knownHostsFile() const;     // the client's; empty until a key is accepted
    QString hostKeyFingerprint() const; // SHA256:… of the host's current key
    QString remoteDataDir() const;      // lizard-local's data directory for the host's sessions
    // What lizard-local on the host wrote in server.json (pid 0 when none runs).
    qint64 remoteServerPid() const;
    QString sshdLog() const;
    // A command in the host's namespace (curl, kill…), waited for; its standard output.
    QByteArray runOnHost(const QStringList& argv, int* exitCode = nullptr) const;

private:
    bool makeNamespace(QString* why);
    bool startSshd(QString* why);
    void stopSshd();
    void stopRemoteServer();

    std::unique_ptr<QTemporaryDir> m_dir;
    QProcess m_sshd;
    QString m_ns, m_outer, m_user, m_address;
    QByteArray m_sshdLog;
};

} // namespace lizard::test
