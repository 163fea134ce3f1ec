#include "support/localserver.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QThread>
#include <curl/curl.h>
#include <pwd.h>
#include <signal.h>
#include <unistd.h>

namespace lizard::test {

LocalServer::LocalServer()
{
    m_user = qEnvironmentVariable("LIZARD_TEST_SERVER_USER");
    if (geteuid() != 0)
        m_user.clear(); // only root can switch users; run as ourselves
}

LocalServer::~LocalServer()
{
    // The data directory goes with the fixture: a sandbox still running now would outlive it
    // (sandboxes survive their server by design, and one made without a deadline never ends by
    // itself), so every suite ends them here, whatever its own cleanup did. A server that a
    // test crashed and could not start again left its sandboxes behind: a new one on the same
    // data directory adopts them, as after any crash, so that they end as usual.
    if ((!m_proc || m_proc->state() != QProcess::Running) && m_tmp &&
        QDir(m_dataDir + "/sandboxes").exists())
        start(m_extraArgs);
    deleteAllSandboxes();
    stop();
    killLeftSandboxes();
    removeTempDir();
}

void LocalServer::killLeftSandboxes()
{
    // What no server ended (it would not start): each sandbox's PID 1, by the pid and start
    // time lizard-local wrote for it, thawed first (a frozen task does not die).
    const QDir sandboxes(m_dataDir + "/sandboxes");
    for (const QString& id : sandboxes.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile file(sandboxes.filePath(id + "/init.pid"));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const QStringList fields = QString::fromLatin1(file.readAll()).split(' ');
        const qint64 pid = fields.value(0).toLongLong();
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (pid <= 1 || fields.size() < 2 || !stat.open(QIODevice::ReadOnly))
            continue;
        // Field 22 (starttime), counted after the command's closing parenthesis.
        const QByteArray line = stat.readAll();
        const QList<QByteArray> after = line.mid(line.lastIndexOf(')') + 2).split(' ');
        if (after.value(19) != fields.value(1).trimmed().toLatin1())
            continue; // that pid is another process now
        QFile cgroups(QStringLiteral("/proc/%1/cgroup").arg(pid));
        if (cgroups.open(QIODevice::ReadOnly)) {
            for (const QByteArray& entry : cgroups.readAll().split('\n')) {
                if (!entry.contains(":freezer:/"))
                    continue;
                QFile state("/sys/fs/cgroup/freezer" + entry.mid(entry.indexOf(":/") + 1) +
                            "/freezer.state");
                if (state.open(QIODevice::WriteOnly))
                    state.write("THAWED");
            }
        }
        qWarning("lizard-local test fixture: no server ended sandbox %s: killing its PID 1 (%lld)",
                 qPrintable(id), pid);
        ::kill(pid_t(pid), SIGKILL);
    }
}

void LocalServer::removeTempDir()
{
    if (!m_tmp)
        return;
    // The whole lizard-test-XXXXXX directory, not only its data/: when the server ran as
    // another user both belong to that user, and QTemporaryDir (auto-remove off then) would
    // leave them. Root removes them; a sandbox's mount that is still going away can keep a
    // directory busy for a moment, hence the retries.
    const QString dir = m_tmp->path();
    QDeadlineTimer deadline(5000);
    while (QFileInfo::exists(dir)) {
        if (runsAsOtherUser())
            QProcess::execute("rm", {"-rf", dir});
        else
            QDir(dir).removeRecursively();
        if (!QFileInfo::exists(dir) || deadline.hasExpired())
            break;
        QThread::msleep(100);
    }
    if (QFileInfo::exists(dir))
        qWarning("lizard-local test fixture: could not remove %s", qPrintable(dir));
    m_tmp.reset();
}

void LocalServer::deleteAllSandboxes()
{
    if (!m_proc || m_proc->state() != QProcess::Running)
        return;
    const Response list = request("GET", "/api/sandboxes");
    for (const QJsonValue& s : QJsonDocument::fromJson(list.body).array())
        request("DELETE", "/api/sandboxes/" + s.toObject().value("sandboxId").toString());
}

QString LocalServer::serverBinary()
{
    const QString fromEnv = qEnvironmentVariable("LIZARD_LOCAL_BIN");
    if (!fromEnv.isEmpty())
        return fromEnv;
    return QStringLiteral(LIZARD_BIN_DIR "/lizard-local");
}

qint64 LocalServer::pid() const
{
    return m_proc ? m_proc->processId() : 0;
}

QByteArray LocalServer::log() const
{
    QByteArray all = m_log;
    if (m_proc)
        all += m_proc->readAll();
    return all;
}

bool LocalServer::start(const QStringList& extraArgs)
{
    m_extraArgs = extraArgs;
    if (m_dataDir.isEmpty()) {
        m_tmp = std::make_unique<QTemporaryDir>(QDir::tempPath() + "/lizard-test-XXXXXX");
        m_tmp->setAutoRemove(!runsAsOtherUser());
        m_dataDir = m_tmp->path() + "/data";
        QDir().mkpath(m_dataDir);
        if (runsAsOtherUser()) {
            const passwd* pw = getpwnam(m_user.toLocal8Bit().constData());
            if (pw == nullptr) {
                m_error = "no such user: " + m_user;
                return false;
            }
            if (chown(m_tmp->path().toLocal8Bit().constData(), pw->pw_uid, pw->pw_gid) != 0 ||
                chown(m_dataDir.toLocal8Bit().constData(), pw->pw_uid, pw->pw_gid) != 0) {
                m_error = "cannot chown the test data dir";
                return false;
            }
        }
    }
    m_proc = std::make_unique<QProcess>();
    m_proc->setProcessChannelMode(QProcess::MergedChannels);
    QStringList args{"--port", QString::number(m_port), "--data-dir", m_dataDir};
    // No warm pools unless a test asks for them: copies started in the background would cost
    // every suite CPU and show in its leftover checks.
    if (!m_extraArgs.contains("--pool-max"))
        args += {"--pool-max", "0"};
    args += m_extraArgs;
    if (runsAsOtherUser()) {
        const passwd* pw = getpwnam(m_user.toLocal8Bit().constData());
        QStringList wrapped{"-u",          m_user, "--", "env", QString("HOME=%1").arg(pw->pw_dir),
                            serverBinary()};
        m_proc->start("runuser", wrapped + args);
    } else {
        m_proc->start(serverBinary(), args);
    }
    if (!m_proc->waitForStarted(5000)) {
        m_error = "cannot start " + serverBinary() + ": " + m_proc->errorString();
        return false;
    }
    static const QRegularExpression re("listening on (http://127\\.0\\.0\\.1:(\\d+))");
    static const QRegularExpression keyRe("key file: (\\S+)");
    QDeadlineTimer deadline(60000); // the first start builds the sandbox templates
    QByteArray out;
    while (!deadline.hasExpired()) {
        if (!m_proc->waitForReadyRead(200) && m_proc->state() != QProcess::Running)
            break;
        out += m_proc->readAll();
        const auto m = re.match(QString::fromUtf8(out));
        const auto k = keyRe.match(QString::fromUtf8(out));
        if (m.hasMatch() && k.hasMatch()) {
            m_url = m.captured(1);
            m_port = m.captured(2).toInt();
            m_keyFile = k.captured(1);
            m_log += out;
            QFile f(m_keyFile); // root reads it also when another user's server wrote it
            if (!f.open(QIODevice::ReadOnly)) {
                m_error = "cannot read key file " + m_keyFile;
                return false;
            }
            m_key = QString::fromUtf8(f.readAll()).trimmed();
            return !m_key.isEmpty();
        }
    }
    // All it said before it ended (an exit leaves output unread in the loop above).
    m_proc->waitForFinished(200);
    out += m_proc->readAll();
    m_log += out;
    m_error = "lizard-local did not report its URL; output:\n" + QString::fromUtf8(out);
    if (m_proc->state() == QProcess::NotRunning)
        m_error += QStringLiteral("\n(it exited with %1)").arg(m_proc->exitCode());
    return false;
}

void LocalServer::stop()
{
    if (!m_proc)
        return;
    // As another user the process is runuser, which can end before the server it started: a
    // start right after would then find the data directory still locked. Wait for the server.
    const qint64 server = serverPid();
    if (m_proc->state() == QProcess::Running) {
        m_proc->terminate();
        if (!m_proc->waitForFinished(15000)) {
            m_proc->kill();
            m_proc->waitForFinished(5000);
        }
    }
    if (server > 1) {
        const auto gone = [server] {
            QFile stat(QStringLiteral("/proc/%1/stat").arg(server));
            // Gone, or a zombie that its new parent has yet to reap: it holds no lock.
            return !stat.open(QIODevice::ReadOnly) || stat.readAll().contains(") Z ");
        };
        QDeadlineTimer deadline(15000);
        while (!gone() && !deadline.hasExpired())
            QThread::msleep(20);
        if (!gone())
            ::kill(pid_t(server), SIGKILL);
    }
    m_log += m_proc->readAll();
    m_proc.reset();
}

qint64 LocalServer::serverPid() const
{
    QFile info(m_dataDir + "/server.json");
    if (!m_proc || !info.open(QIODevice::ReadOnly))
        return 0;
    return QJsonDocument::fromJson(info.readAll()).object().value("pid").toInteger();
}

bool LocalServer::crash()
{
    const qint64 server = serverPid();
    if (server <= 1 || ::kill(pid_t(server), SIGKILL) != 0)
        return false;
    m_proc->waitForFinished(10000);
    m_log += m_proc->readAll();
    m_proc.reset();
    return true;
}

bool LocalServer::restart()
{
    stop();
    return start(m_extraArgs);
}

static size_t collect(char* ptr, size_t size, size_t n, void* userdata)
{
    static_cast<QByteArray*>(userdata)->append(ptr, qsizetype(size * n));
    return size * n;
}

static size_t collectHeader(char* ptr, size_t size, size_t n, void* userdata)
{
    const QByteArray line(ptr, qsizetype(size * n));
    if (line.toLower().startsWith("content-type:"))
        *static_cast<QByteArray*>(userdata) = line.mid(13).trimmed();
    return size * n;
}

LocalServer::Response LocalServer::request(const QByteArray& method, const QString& path,
                                           const QByteArray& body, const QByteArray& key,
                                           const QList<QByteArray>& headers) const
{
    Response r;
    CURL* c = curl_easy_init();
    const QByteArray url = (m_url + path).toUtf8();
    curl_easy_setopt(c, CURLOPT_URL, url.constData());
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method.constData());
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_TIMEOUT, 120L);
    curl_slist* hs = nullptr;
    const QByteArray useKey = key == "<default>" ? m_key.toUtf8() : key;
    if (!useKey.isEmpty())
        hs = curl_slist_append(hs, ("X-API-Key: " + useKey).constData());
    if (!body.isEmpty() || method == "POST" || method == "PATCH") {
        hs = curl_slist_append(hs, "Content-Type: application/json");
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, body.constData());
        curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, long(body.size()));
    }
    for (const QByteArray& h : headers)
        hs = curl_slist_append(hs, h.constData());
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, hs);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &r.body);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, collectHeader);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &r.contentType);
    if (curl_easy_perform(c) == CURLE_OK) {
        long status = 0;
        curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
        r.status = int(status);
    }
    curl_slist_free_all(hs);
    curl_easy_cleanup(c);
    return r;
}

} // namespace lizard::test
