#include "support/sshhost.h"

#include "support/wait.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScopeGuard>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

namespace lizard::test {

namespace {

QString run(const QStringList& cmd, QString* err = nullptr, int* exitCode = nullptr)
{
    QProcess p;
    p.start(cmd.first(), cmd.mid(1));
    const bool ended = p.waitForFinished(30000);
    if (exitCode)
        *exitCode = ended && p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    if (!ended || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        if (err)
            *err = cmd.join(' ') + ": " + QString::fromUtf8(p.readAllStandardError()).trimmed();
        return {};
    }
    return QString::fromUtf8(p.readAllStandardOutput()) + ""; // "" is not null
}

bool writeFile(const QString& path, const QByteArray& text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(text) == text.size();
}

} // namespace

SshHost::SshHost()
{
    m_sshd.setProcessChannelMode(QProcess::MergedChannels);
}

SshHost::~SshHost()
{
    stop();
}

bool SshHost::start(QString* why)
{
    if (!QFile::exists(QStringLiteral("/usr/sbin/sshd"))) {
        *why = QStringLiteral("/usr/sbin/sshd is missing: install openssh-server "
                              "(scripts/install-deps.sh does)");
        return false;
    }
    if (::geteuid() != 0) {
        *why = QStringLiteral("the SSH host is a network namespace, which needs root");
        return false;
    }
    const passwd* pw = ::getpwuid(::geteuid());
    m_user = QString::fromLocal8Bit(pw != nullptr ? pw->pw_name : "root");
    // Named as the other fixtures' folders, so that scripts/check-leaks.sh sees one left behind.
    m_dir = std::make_unique<QTemporaryDir>(QDir::tempPath() + "/lizard-test-ssh-XXXXXX");
    if (!m_dir->isValid()) {
        *why = m_dir->errorString();
        return false;
    }
    const QString d = m_dir->path();
    for (const QStringList& cmd : {QStringList{"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C",
                                               "lizard-test-host", "-f", d + "/host_key"},
                                   QStringList{"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C",
                                               "lizard-test-user", "-f", d + "/id_test"}})
        if (run(cmd, why).isNull())
            return false;
    QFile::copy(d + "/id_test.pub", d + "/authorized_keys");
    QDir().mkpath(d + "/remote-data");
    QDir().mkpath(d + "/remote-cache");

    if (!makeNamespace(why))
        return false;
    // The client's side: nothing of the user's ~/.ssh, no agent.
    const QByteArray client = "Host *\n"
                              "  UserKnownHostsFile " +
                              (d + "/known_hosts").toUtf8() +
                              "\n"
                              "  GlobalKnownHostsFile /dev/null\n"
                              "  IdentityFile " +
                              (d + "/id_test").toUtf8() +
                              "\n"
                              "  IdentitiesOnly yes\n"
                              "  IdentityAgent none\n"
                              "  UpdateHostKeys no\n";
    if (!writeFile(clientConfig(), client)) {
        *why = "cannot write " + clientConfig();
        return false;
    }
    return startSshd(why);
}

bool SshHost::makeNamespace(QString* why)
{
    const QString pid = QString::number(::getpid());
    m_ns = "lzt-ssh-" + pid;
    m_outer = "lzts" + pid + "a";
    const QString inner = "lzts" + pid + "b";
    // Suites in parallel (and the benchmark) each make a namespace: choosing a free subnet and
    // taking it is one step for all of them.
    const int lock = ::open("/run/lizard-test-netns.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (lock >= 0)
        ::flock(lock, LOCK_EX);
    const auto unlock = qScopeGuard([lock] {
        if (lock >= 0)
            ::close(lock); // releases the lock
    });
    const QString used = run({"ip", "-o", "addr"});
    int net = 100 + int(::getpid() % 150);
    while (used.contains(QStringLiteral("172.30.%1.").arg(net)))
        net = net % 250 + 1;
    const QString hostSide = QStringLiteral("172.30.%1.1").arg(net);
    m_address = QStringLiteral("172.30.%1.2").arg(net);
    for (const QStringList& cmd : QList<QStringList>{
             {"ip", "netns", "add", m_ns},
             {"ip", "link", "add", m_outer, "type", "veth", "peer", "name", inner, "netns", m_ns},
             {"ip", "addr", "add", hostSide + "/30", "dev", m_outer},
             {"ip", "link", "set", m_outer, "up"},
             {"ip", "-n", m_ns, "addr", "add", m_address + "/30", "dev", inner},
             {"ip", "-n", m_ns, "link", "set", inner, "up"},
             {"ip", "-n", m_ns, "link", "set", "lo", "up"}}) {
        if (run(cmd, why).isNull())
            return false;
    }
    return true;
}

bool SshHost::startSshd(QString* why)
{
    const QString d = m_dir->path();
    // sshd as root wants its privilege separation folder (the package's systemd unit makes it).
    QDir().mkpath(QStringLiteral("/run/sshd"));
    const QByteArray config = "Port 2222\n"
                              "ListenAddress " +
                              m_address.toUtf8() + "\nHostKey " + (d + "/host_key").toUtf8() +
                              "\nPidFile none\n"
                              "AuthorizedKeysFile " +
                              (d + "/authorized_keys").toUtf8() +
                              "\nStrictModes no\n"
                              "UsePAM no\n"
                              "PermitRootLogin prohibit-password\n"
                              "PasswordAuthentication no\n"
                              "KbdInteractiveAuthentication no\n"
                              "PubkeyAuthentication yes\n"
                              "AllowTcpForwarding yes\n"
                              "X11Forwarding no\n"
                              "PrintMotd no\n"
                              "LogLevel VERBOSE\n"
                              // The host's lizard-local: the build's, with data of this test's own.
                              "SetEnv XDG_DATA_HOME=" +
                              (d + "/remote-data").toUtf8() +
                              " XDG_CACHE_HOME=" + (d + "/remote-cache").toUtf8() +
                              " PATH=" LIZARD_BIN_DIR ":/usr/local/bin:/usr/bin:/bin\n";
    if (!writeFile(d + "/sshd_config", config)) {
        *why = "cannot write sshd_config";
        return false;
    }
    m_sshdLog.clear();
    m_sshd.start("ip",
                 {"netns", "exec", m_ns, "/usr/sbin/sshd", "-D", "-e", "-f", d + "/sshd_config"});
    const bool listening = waitUntil(
        [this] {
            m_sshdLog += m_sshd.readAll();
            return m_sshdLog.contains("Server listening on") ||
                   m_sshd.state() == QProcess::NotRunning;
        },
        15000);
    if (!listening || !m_sshdLog.contains("Server listening on")) {
        *why = "sshd did not start: " + QString::fromUtf8(m_sshdLog);
        return false;
    }
    return true;
}

void SshHost::stopSshd()
{
    if (m_sshd.state() != QProcess::NotRunning) {
        m_sshd.terminate();
        if (!m_sshd.waitForFinished(5000)) {
            m_sshd.kill();
            m_sshd.waitForFinished(5000);
        }
    }
    m_sshdLog += m_sshd.readAll();
}

bool SshHost::replaceHostKey(QString* why)
{
    stopSshd();
    const QString key = m_dir->path() + "/host_key";
    QFile::remove(key);
    QFile::remove(key + ".pub");
    if (run({"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "lizard-test-host-2", "-f", key},
            why)
            .isNull())
        return false;
    return startSshd(why);
}

QString SshHost::clientConfig() const
{
    return m_dir ? m_dir->filePath("ssh_config") : QString();
}

QString SshHost::knownHostsFile() const
{
    return m_dir ? m_dir->filePath("known_hosts") : QString();
}

QString SshHost::hostKeyFingerprint() const
{
    const QString out = run({"ssh-keygen", "-l", "-f", m_dir->filePath("host_key.pub")});
    return out.section(' ', 1, 1);
}

QString SshHost::remoteDataDir() const
{
    return m_dir ? m_dir->filePath("remote-data/lizard-local") : QString();
}

qint64 SshHost::remoteServerPid() const
{
    QFile f(remoteDataDir() + "/server.json");
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const qint64 pid = QJsonDocument::fromJson(f.readAll()).object().value("pid").toInteger();
    return pid > 0 && ::kill(pid_t(pid), 0) == 0 ? pid : 0;
}

QString SshHost::sshdLog() const
{
    return QString::fromUtf8(m_sshdLog);
}

QByteArray SshHost::runOnHost(const QStringList& argv, int* exitCode) const
{
    QProcess p;
    p.start("ip", QStringList{"netns", "exec", m_ns} + argv);
    p.waitForFinished(60000);
    if (exitCode)
        *exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return p.readAllStandardOutput();
}

void SshHost::stopRemoteServer()
{
    const qint64 pid = remoteServerPid();
    if (pid == 0)
        return;
    // Sandboxes outlive a stopped server (it adopts them at its next start): delete them first.
    QFile jsonFile(remoteDataDir() + "/server.json");
    QFile keyFile(remoteDataDir() + "/api-key");
    if (jsonFile.open(QIODevice::ReadOnly) && keyFile.open(QIODevice::ReadOnly)) {
        const QString url =
            QJsonDocument::fromJson(jsonFile.readAll()).object().value("url").toString();
        const QString header = "X-API-Key: " + QString::fromUtf8(keyFile.readAll()).trimmed();
        const QByteArray list =
            runOnHost({"curl", "-sS", "--max-time", "30", "-H", header, url + "/api/sandboxes"});
        for (const QJsonValue& s : QJsonDocument::fromJson(list).array())
            runOnHost({"curl", "-sS", "--max-time", "60", "-X", "DELETE", "-H", header,
                       url + "/api/sandboxes/" + s.toObject().value("sandboxId").toString()});
    }
    ::kill(pid_t(pid), SIGTERM);
    if (!waitUntil([pid] { return ::kill(pid_t(pid), 0) != 0; }, 20000))
        ::kill(pid_t(pid), SIGKILL);
}

void SshHost::stop()
{
    if (m_ns.isEmpty())
        return;
    stopRemoteServer();
    stopSshd();
    // Whatever else sessions left in the namespace (it is this test's own).
    const QString left = run({"ip", "netns", "pids", m_ns});
    for (const QString& p : left.split('\n', Qt::SkipEmptyParts))
        ::kill(pid_t(p.toLongLong()), SIGKILL);
    run({"ip", "netns", "delete", m_ns}); // takes the veth pair along
    m_ns.clear();
}

} // namespace lizard::test
