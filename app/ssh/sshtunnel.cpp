#include "app/ssh/sshtunnel.h"

#include <QDateTime>
#include <QFile>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <nlohmann/json.hpp>
#include <sys/socket.h>
#include <unistd.h>

namespace lizard::app::ssh {

namespace {

constexpr int kMasterTimeoutMs = 60000;
// findserver.sh waits up to 90 s for a lizard-local it started.
constexpr int kDiscoverTimeoutMs = 120000;

// A port no one listens on now; ssh's ExitOnForwardFailure-like answer to -O forward says if
// another program took it in between, and then another is tried.
int freeLoopbackPort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return 0;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
        port = ntohs(addr.sin_port);
    ::close(fd);
    return port;
}

QByteArray section(const QByteArray& out, const QByteArray& from, const QByteArray& to)
{
    const qsizetype a = out.indexOf(from);
    const qsizetype b = out.indexOf(to, a < 0 ? 0 : a);
    return a < 0 || b < 0 ? QByteArray() : out.mid(a + from.size(), b - a - from.size());
}

// The port proxy's addresses of lizard-local: http:// on 127.0.0.0/8 with a port.
bool proxyAddress(const QUrl& url)
{
    in_addr host{};
    return url.scheme() == QLatin1String("http") && url.port() > 0 &&
           ::inet_pton(AF_INET, url.host().toLatin1().constData(), &host) == 1 &&
           (ntohl(host.s_addr) >> 24) == 127;
}

} // namespace

SshTunnel::SshTunnel(SshTarget target, QObject* parent)
    : client::ProxyRoute(parent), m_target(std::move(target)), m_hostKeys(this)
{
    m_poll.setInterval(50);
    connect(&m_poll, &QTimer::timeout, this, &SshTunnel::pollMaster);
    m_retry.setSingleShot(true);
    connect(&m_retry, &QTimer::timeout, this, &SshTunnel::launchMaster);
}

SshTunnel::~SshTunnel()
{
    stopMaster();
}

qint64 SshTunnel::masterPid() const
{
    return m_master ? m_master->processId() : 0;
}

QString SshTunnel::controlPath() const
{
    return m_controlDir ? m_controlDir->filePath(QStringLiteral("ctl")) : QString();
}

void SshTunnel::start()
{
    m_everUp = false;
    m_backoffS = 1;
    launchMaster();
}

void SshTunnel::launchMaster()
{
    stopMaster();
    const quint64 generation = ++m_generation;
    m_state = State::Connecting;
    if (!m_everUp) // a reconnection says itself through dropped() and restored()
        emit progress(QStringLiteral("Connecting to %1 over SSH…").arg(m_target.label()));
    // The control socket's path must fit in sun_path (108 bytes): a short private folder.
    m_controlDir = std::make_unique<QTemporaryDir>(QStringLiteral("/tmp/lizard-ssh-XXXXXX"));
    if (!m_controlDir->isValid()) {
        giveUp(QStringLiteral("Cannot make a folder for the SSH control socket: %1")
                   .arg(m_controlDir->errorString()));
        return;
    }
    auto* master = new QProcess(this);
    m_master = master;
    master->setProcessEnvironment(sshEnvironment());
    master->setStandardInputFile(QProcess::nullDevice());
    master->setStandardOutputFile(QProcess::nullDevice());
    QStringList args{QStringLiteral("-M"), QStringLiteral("-S"),
                     controlPath(),        QStringLiteral("-N"),
                     QStringLiteral("-o"), QStringLiteral("ControlPersist=no"),
                     QStringLiteral("-o"), QStringLiteral("ExitOnForwardFailure=yes"),
                     QStringLiteral("-o"), QStringLiteral("ServerAliveInterval=5"),
                     QStringLiteral("-o"), QStringLiteral("ServerAliveCountMax=3")};
    args << m_target.options() << m_target.destination;
    connect(master, &QProcess::finished, this, [this, generation] { masterEnded(generation); });
    master->start(sshProgram(), args);
    m_masterStarted = QDateTime::currentMSecsSinceEpoch();
    m_poll.start();
}

void SshTunnel::pollMaster()
{
    // The master opens its control socket once it is logged in.
    if (QFile::exists(controlPath())) {
        m_poll.stop();
        discover();
        return;
    }
    if (QDateTime::currentMSecsSinceEpoch() - m_masterStarted > kMasterTimeoutMs) {
        m_poll.stop();
        if (m_master)
            m_master->kill(); // masterEnded() says what happened
    }
}

void SshTunnel::masterEnded(quint64 generation)
{
    if (generation != m_generation || !m_master)
        return;
    m_poll.stop();
    const QByteArray err = m_master->readAllStandardError();
    const QString how = m_master->exitStatus() == QProcess::CrashExit
                            ? QStringLiteral("ssh was ended by a signal")
                            : QStringLiteral("ssh exited with status %1").arg(m_master->exitCode());
    m_master->deleteLater();
    m_master = nullptr;
    const State was = m_state;
    if (was == State::Idle || was == State::Failed)
        return;
    const Failure f = failure(m_target, err);
    if (was == State::Up) {
        m_state = State::Waiting;
        const QString said = lastLine(err);
        emit dropped(QStringLiteral("The SSH connection to %1 ended (%2).")
                         .arg(m_target.label(), said.isEmpty() ? how : said),
                     m_backoffS);
        m_retry.start(m_backoffS * 1000);
        return;
    }
    if (f.kind == Failure::Kind::UnknownHostKey) {
        emit progress(QStringLiteral("Reading the host key of %1…").arg(m_target.label()));
        m_hostKeys.probe(m_target,
                         [this, generation](const PresentedKey& key, const QString& error) {
                             if (generation != m_generation)
                                 return;
                             if (!error.isEmpty())
                                 return giveUp(error);
                             m_presented = key;
                             emit hostKeyUnknown(m_target.label(), key.fingerprints);
                         });
        return;
    }
    if (f.kind == Failure::Kind::ChangedHostKey || !m_everUp)
        return giveUp(f.message);
    retryLater(f.message);
}

void SshTunnel::answerHostKey(bool trust)
{
    if (!trust)
        return giveUp(QStringLiteral("Not connected: the host key of %1 was not accepted.")
                          .arg(m_target.label()));
    QString error;
    if (!HostKeys::trust(m_target, m_presented, &error))
        return giveUp(error);
    launchMaster();
}

void SshTunnel::discover()
{
    const quint64 generation = m_generation;
    if (!m_everUp)
        emit progress(QStringLiteral("Looking for lizard-local on %1…").arg(m_target.label()));
    QFile script(QStringLiteral(":/ssh/findserver.sh"));
    script.open(QIODevice::ReadOnly);
    runOverMaster(
        {m_target.destination, QStringLiteral("sh"), QStringLiteral("-s")}, script.readAll(),
        [this, generation](int code, const QByteArray& out, const QByteArray& err) {
            if (generation != m_generation)
                return;
            const QByteArray json =
                section(out, "LIZARD-SERVER-JSON\n", "LIZARD-API-KEY\n").trimmed();
            const QString key =
                QString::fromUtf8(section(out, "LIZARD-API-KEY\n", "LIZARD-END")).trimmed();
            const auto obj =
                nlohmann::json::parse(json.constBegin(), json.constEnd(), nullptr, false);
            if (code != 0 || !obj.is_object() || key.isEmpty()) {
                const QString why = QString::fromUtf8(err).trimmed();
                const QString message =
                    QStringLiteral("lizard-local on %1: %2")
                        .arg(m_target.label(),
                             why.isEmpty() ? QStringLiteral("no answer (ssh exit %1)").arg(code)
                                           : why);
                return m_everUp ? retryLater(message) : giveUp(message);
            }
            RemoteServer s;
            s.apiKey = key;
            s.remotePort = obj.value("port", 0);
            s.proxyPort = obj.value("proxyPort", 0);
            s.version = QString::fromStdString(obj.value("version", std::string()));
            s.how = QString::fromUtf8(section(out, "LIZARD-HOW ", "\n")).trimmed();
            if (s.remotePort <= 0)
                return giveUp(QStringLiteral("lizard-local on %1 names no port in server.json")
                                  .arg(m_target.label()));
            m_server = s;
            forwardApi(5);
        },
        kDiscoverTimeoutMs);
}

void SshTunnel::forwardApi(int attemptsLeft)
{
    const quint64 generation = m_generation;
    // The same local port as before a drop, so the client made for it works again.
    if (m_localPort == 0 || attemptsLeft < 5)
        m_localPort = freeLoopbackPort();
    const QString spec =
        QStringLiteral("127.0.0.1:%1:127.0.0.1:%2").arg(m_localPort).arg(m_server.remotePort);
    runOverMaster(
        {QStringLiteral("-O"), QStringLiteral("forward"), QStringLiteral("-L"), spec,
         m_target.destination},
        {}, [this, generation, attemptsLeft](int code, const QByteArray&, const QByteArray& err) {
            if (generation != m_generation)
                return;
            if (code != 0) {
                if (attemptsLeft > 1)
                    return forwardApi(attemptsLeft - 1);
                return giveUp(QStringLiteral("Cannot forward lizard-local's port from %1: %2")
                                  .arg(m_target.label(), QString::fromUtf8(err).trimmed()));
            }
            m_server.url = QStringLiteral("http://127.0.0.1:%1").arg(m_localPort);
            reforward(m_forwards.values());
        });
}

void SshTunnel::reforward(QStringList pending)
{
    // The port proxy's addresses forwarded before a drop, again (the server may have moved them).
    if (pending.isEmpty())
        return becameUp();
    const quint64 generation = m_generation;
    const QString address = pending.takeFirst();
    runOverMaster({QStringLiteral("-O"), QStringLiteral("forward"), QStringLiteral("-L"),
                   address + QLatin1Char(':') + address, m_target.destination},
                  {}, [this, generation, pending, address](int code, auto&&, auto&&) {
                      if (generation != m_generation)
                          return;
                      if (code != 0)
                          m_forwards.remove(address);
                      reforward(pending);
                  });
}

void SshTunnel::becameUp()
{
    m_state = State::Up;
    m_backoffS = 1;
    const bool first = !m_everUp;
    const bool changed =
        !first && (m_server.url != m_previous.url || m_server.apiKey != m_previous.apiKey);
    m_everUp = true;
    m_previous = m_server;
    if (first)
        emit ready(m_server);
    else
        emit restored(m_server, changed);
}

void SshTunnel::retryLater(const QString& message)
{
    stopMaster();
    m_state = State::Waiting;
    m_backoffS = qMin(m_backoffS * 2, m_maxBackoffS);
    emit dropped(message, m_backoffS);
    m_retry.start(m_backoffS * 1000);
}

void SshTunnel::giveUp(const QString& message)
{
    stopMaster();
    m_state = State::Failed;
    emit failed(message);
}

void SshTunnel::stopMaster()
{
    m_poll.stop();
    m_retry.stop();
    ++m_generation; // answers of runs over the old master are stale
    if (m_master) {
        QProcess* master = m_master;
        m_master = nullptr;
        master->disconnect(this);
        master->terminate();
        if (!master->waitForFinished(3000))
            master->kill();
        master->waitForFinished(1000);
        delete master;
    }
    m_controlDir.reset();
}

void SshTunnel::open(const QUrl& url, QObject* ctx, std::function<void(QString)> done)
{
    QPointer<QObject> alive(ctx);
    const auto reply = [ctx, alive, done = std::move(done)](const QString& error) {
        if (ctx == nullptr || alive != nullptr)
            done(error);
    };
    if (!proxyAddress(url)) {
        QTimer::singleShot(0, this, [reply] { reply({}); });
        return;
    }
    const QString address = QStringLiteral("%1:%2").arg(url.host()).arg(url.port());
    if (m_state != State::Up) {
        QTimer::singleShot(0, this, [this, reply] {
            reply(QStringLiteral("the SSH connection to %1 is down").arg(m_target.label()));
        });
        return;
    }
    if (m_forwards.contains(address)) {
        QTimer::singleShot(0, this, [reply] { reply({}); });
        return;
    }
    // The same address and port here as on the host: the page's origin, which the port proxy
    // checks (Host) and the browser keeps apart per exposure, stays what the server made it.
    runOverMaster(
        {QStringLiteral("-O"), QStringLiteral("forward"), QStringLiteral("-L"),
         address + QLatin1Char(':') + address, m_target.destination},
        {}, [this, address, reply](int code, const QByteArray&, const QByteArray& err) {
            if (code != 0) {
                reply(QStringLiteral("cannot forward %1 from %2 (%3)")
                          .arg(address, m_target.label(), QString::fromUtf8(err).trimmed()));
                return;
            }
            m_forwards.insert(address);
            reply({});
        });
}

void SshTunnel::runOverMaster(const QStringList& args, const QByteArray& input,
                              std::function<void(int, QByteArray, QByteArray)> done, int timeoutMs)
{
    auto* proc = new QProcess(this);
    proc->setProcessEnvironment(sshEnvironment());
    connect(proc, &QProcess::finished, this, [proc, done](int code, QProcess::ExitStatus status) {
        proc->deleteLater();
        done(status == QProcess::NormalExit ? code : 255, proc->readAllStandardOutput(),
             proc->readAllStandardError());
    });
    proc->start(sshProgram(), m_target.overMaster(controlPath()) + args);
    if (!input.isEmpty())
        proc->write(input);
    proc->closeWriteChannel();
    QTimer::singleShot(timeoutMs, proc, [proc] { proc->kill(); });
}

} // namespace lizard::app::ssh
