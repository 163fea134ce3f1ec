#include "app/ssh/hostkeys.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTimer>
#include <memory>

namespace lizard::app::ssh {

namespace {

constexpr int kProbeTimeoutMs = 30000;

QString expandHome(QString path)
{
    if (path.startsWith(QLatin1String("~/")))
        path = QDir::homePath() + path.mid(1);
    return path;
}

} // namespace

void HostKeys::probe(const SshTarget& target,
                     std::function<void(const PresentedKey&, const QString&)> done)
{
    auto dir = std::make_shared<QTemporaryDir>();
    if (!dir->isValid()) {
        done({}, QStringLiteral("cannot make a temporary folder: %1").arg(dir->errorString()));
        return;
    }
    const QString file = dir->filePath(QStringLiteral("known_hosts"));
    auto* proc = new QProcess(this);
    proc->setProcessEnvironment(sshEnvironment());
    proc->setStandardInputFile(QProcess::nullDevice());
    // accept-new into a file of our own records exactly the key the host presented; no login is
    // tried (no authentication method: ssh stops at "Permission denied" after the key exchange),
    // so nothing is signed for a host not yet trusted; the user's files are neither read nor
    // written here.
    // ssh keeps the first value given for an option: these come before target.options().
    QStringList args{QStringLiteral("-o"), QStringLiteral("StrictHostKeyChecking=accept-new"),
                     QStringLiteral("-o"), QStringLiteral("UserKnownHostsFile=") + file,
                     QStringLiteral("-o"), QStringLiteral("GlobalKnownHostsFile=/dev/null"),
                     QStringLiteral("-o"), QStringLiteral("HashKnownHosts=no"),
                     QStringLiteral("-o"), QStringLiteral("UpdateHostKeys=no"),
                     QStringLiteral("-o"), QStringLiteral("ControlMaster=no"),
                     QStringLiteral("-o"), QStringLiteral("ControlPath=none"),
                     QStringLiteral("-o"), QStringLiteral("PreferredAuthentications=none")};
    args << target.options() << target.destination << QStringLiteral("true");
    connect(proc, &QProcess::finished, this, [this, proc, dir, file, target, done] {
        proc->deleteLater();
        QFile f(file);
        PresentedKey key;
        if (f.open(QIODevice::ReadOnly))
            key.knownHostsLines = f.readAll();
        if (key.knownHostsLines.trimmed().isEmpty()) {
            done({}, failure(target, proc->readAllStandardError()).message);
            return;
        }
        auto* keygen = new QProcess(this);
        keygen->setProcessEnvironment(sshEnvironment());
        connect(keygen, &QProcess::finished, this, [keygen, dir, key, done]() mutable {
            keygen->deleteLater();
            key.fingerprints = QString::fromUtf8(keygen->readAllStandardOutput())
                                   .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
            if (key.fingerprints.isEmpty())
                done({}, QStringLiteral("ssh-keygen could not read the host's key: %1")
                             .arg(QString::fromUtf8(keygen->readAllStandardError()).trimmed()));
            else
                done(key, {});
        });
        keygen->start(keygenProgram(), {QStringLiteral("-l"), QStringLiteral("-f"), file});
    });
    proc->start(sshProgram(), args);
    // A host that never answers: ConnectTimeout bounds the TCP connect, this the rest.
    QTimer::singleShot(kProbeTimeoutMs, proc, [proc] { proc->kill(); });
}

QString HostKeys::userKnownHostsFile(const SshTarget& target)
{
    QProcess proc;
    proc.setProcessEnvironment(sshEnvironment());
    QStringList args;
    if (!target.configFile.isEmpty())
        args << QStringLiteral("-F") << target.configFile;
    if (target.port > 0)
        args << QStringLiteral("-p") << QString::number(target.port);
    args << QStringLiteral("-G") << target.destination;
    proc.start(sshProgram(), args);
    // ssh -G only reads the configuration; it does not connect.
    proc.waitForFinished(10000);
    for (const QByteArray& line : proc.readAllStandardOutput().split('\n')) {
        if (!line.startsWith("userknownhostsfile "))
            continue;
        const QString first = QString::fromUtf8(line.mid(19)).section(QLatin1Char(' '), 0, 0);
        if (!first.isEmpty())
            return expandHome(first);
    }
    return QDir::homePath() + QStringLiteral("/.ssh/known_hosts");
}

bool HostKeys::trust(const SshTarget& target, const PresentedKey& key, QString* error)
{
    const QString path = userKnownHostsFile(target);
    const QString folder = QFileInfo(path).absolutePath();
    if (!QFileInfo::exists(folder)) {
        if (!QDir().mkpath(folder)) {
            *error = QStringLiteral("cannot make %1").arg(folder);
            return false;
        }
        QFile::setPermissions(folder, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }
    QFile file(path);
    const bool existed = file.exists();
    if (!file.open(QIODevice::Append)) {
        *error = QStringLiteral("cannot add the key to %1: %2").arg(path, file.errorString());
        return false;
    }
    if (!existed)
        file.setPermissions(QFile::ReadOwner | QFile::WriteOwner);
    QByteArray lines = key.knownHostsLines;
    if (!lines.endsWith('\n'))
        lines += '\n';
    if (file.write(lines) != lines.size() || !file.flush()) {
        *error = QStringLiteral("cannot add the key to %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace lizard::app::ssh
