#include "app/localserverconnector.h"

#include "app/serverlog.h"
#include "client/lizardapi.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <cerrno>
#include <nlohmann/json.hpp>
#include <signal.h>
#include <sys/stat.h>

namespace lizard::app {

namespace {
bool processAlive(qint64 pid)
{
    return pid > 0 && (::kill(pid_t(pid), 0) == 0 || errno == EPERM);
}

QString readKey(const QString& keyFile, QString* error)
{
    QFile f(keyFile);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read the key file %1: %2").arg(keyFile, f.errorString());
        return {};
    }
    return QString::fromUtf8(f.readAll()).trimmed();
}
} // namespace

LocalServerConnector::LocalServerConnector(QString dataDir, QObject* parent)
    : QObject(parent), m_dataDir(std::move(dataDir)), m_binary(findBinary())
{
    m_logPath = QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation) +
                QStringLiteral("/lizard-desktop/lizard-local.log");
    m_poll.setInterval(100);
    connect(&m_poll, &QTimer::timeout, this, &LocalServerConnector::pollLaunch);
}

QString LocalServerConnector::defaultDataDir()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
           QStringLiteral("/lizard-local");
}

QString LocalServerConnector::findBinary()
{
    const QString beside = QCoreApplication::applicationDirPath() + QStringLiteral("/lizard-local");
    if (QFileInfo(beside).isExecutable())
        return beside;
    return QStandardPaths::findExecutable(QStringLiteral("lizard-local"));
}

void LocalServerConnector::start()
{
    m_done = false;
    emit progress(QStringLiteral("Looking for a running lizard-local…"));
    QFile file(m_dataDir + QStringLiteral("/server.json"));
    if (!file.open(QIODevice::ReadOnly)) {
        launch();
        return;
    }
    const QByteArray bytes = file.readAll();
    const auto obj = nlohmann::json::parse(bytes.constBegin(), bytes.constEnd(), nullptr, false);
    const auto text = [&obj](const char* key) {
        const auto it = obj.is_object() ? obj.find(key) : obj.end();
        return it != obj.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                                  : QString();
    };
    LocalServerInfo info;
    info.url = text("url");
    info.keyFile = text("keyFile");
    if (const auto pid = obj.is_object() ? obj.find("pid") : obj.end();
        pid != obj.end() && pid->is_number_integer())
        info.pid = pid->get<qint64>();
    QString error;
    if (info.url.isEmpty() || !processAlive(info.pid) ||
        (info.apiKey = readKey(info.keyFile, &error)).isEmpty()) {
        launch(); // stale or unreadable: a new server replaces it (it refuses if one holds the
                  // lock)
        return;
    }
    // Our log describes this server only if we started it (same address).
    const QString log = readServerLog(m_logPath);
    if (parseAnnouncement(log).url == info.url)
        info.notes = capabilityNotes(log);
    verify(info, [this] { launch(); });
}

void LocalServerConnector::verify(LocalServerInfo info, std::function<void()> onFailure)
{
    delete m_probe;
    m_probe = new client::LizardApi({info.url, info.apiKey}, this);
    m_probe->whoAmI(this, [this, info, onFailure](client::Outcome<client::WhoAmI> outcome) {
        m_probe->deleteLater();
        if (m_done)
            return;
        if (outcome) {
            m_done = true;
            emit ready(info);
            return;
        }
        onFailure();
    });
}

void LocalServerConnector::launch()
{
    if (m_binary.isEmpty()) {
        m_done = true;
        emit failed(QStringLiteral(
            "lizard-local is not running and was not found next to lizard-desktop or on "
            "PATH; install it or start it by hand."));
        return;
    }
    emit progress(QStringLiteral("Starting lizard-local…"));
    if (!QFileInfo::exists(m_dataDir)) {
        QDir().mkpath(m_dataDir);
        ::chmod(QFile::encodeName(m_dataDir).constData(), 0700);
    }
    QDir().mkpath(QFileInfo(m_logPath).absolutePath());
    QFile(m_logPath).resize(0);
    QProcess proc;
    proc.setProgram(m_binary);
    proc.setArguments(QStringList{QStringLiteral("--data-dir"), m_dataDir} + m_extraArgs);
    // Both streams append to one log; the server outlives the app (its own session).
    proc.setStandardOutputFile(m_logPath, QIODevice::Append);
    proc.setStandardErrorFile(m_logPath, QIODevice::Append);
    proc.setStandardInputFile(QProcess::nullDevice());
    if (!proc.startDetached(&m_launchedPid)) {
        m_done = true;
        emit failed(QStringLiteral("Cannot start %1: %2").arg(m_binary, proc.errorString()));
        return;
    }
    m_launchStarted = QDateTime::currentMSecsSinceEpoch();
    m_poll.start();
}

void LocalServerConnector::pollLaunch()
{
    const QString log = readServerLog(m_logPath);
    const ServerAnnouncement announced = parseAnnouncement(log);
    if (!announced.url.isEmpty() && !announced.keyFile.isEmpty()) {
        m_poll.stop();
        LocalServerInfo info;
        info.url = announced.url;
        info.keyFile = announced.keyFile;
        info.pid = m_launchedPid;
        info.startedByUs = true;
        info.notes = capabilityNotes(log);
        QString error;
        info.apiKey = readKey(info.keyFile, &error);
        if (info.apiKey.isEmpty()) {
            m_done = true;
            emit failed(QStringLiteral("lizard-local started but ") + error);
            return;
        }
        verify(info, [this, url = info.url] {
            m_done = true;
            emit failed(QStringLiteral("lizard-local at %1 does not accept its own key").arg(url));
        });
        return;
    }
    if (!processAlive(m_launchedPid)) {
        m_poll.stop();
        m_done = true;
        emit failed(QStringLiteral("lizard-local stopped during start-up:\n") + logTail());
        return;
    }
    if (QDateTime::currentMSecsSinceEpoch() - m_launchStarted > m_startTimeoutMs) {
        m_poll.stop();
        m_done = true;
        emit failed(QStringLiteral("lizard-local did not report its address within %1 s:\n")
                        .arg(m_startTimeoutMs / 1000) +
                    logTail());
    }
}

QString LocalServerConnector::logTail() const
{
    const QStringList lines = readServerLog(m_logPath).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    return lines.mid(qMax(0, int(lines.size()) - 8)).join(QLatin1Char('\n'));
}

} // namespace lizard::app
