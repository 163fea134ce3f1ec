#include "app/ssh/sshtarget.h"

#include <QFileInfo>
#include <QStandardPaths>

namespace lizard::app::ssh {

namespace {

QString program(const QString& name)
{
    const QString debian = QStringLiteral("/usr/bin/") + name;
    if (QFileInfo(debian).isExecutable())
        return debian;
    const QString found = QStandardPaths::findExecutable(name);
    return found.isEmpty() ? debian : found;
}

} // namespace

QString lastLine(const QByteArray& text)
{
    const QStringList lines = QString::fromUtf8(text).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (auto it = lines.crbegin(); it != lines.crend(); ++it) {
        const QString line = it->trimmed();
        if (!line.isEmpty() && !line.startsWith(QLatin1Char('@')) &&
            !line.startsWith(QLatin1String("Warning: Permanently added")))
            return line;
    }
    return {};
}

SshTarget SshTarget::fromProfile(const models::ConnectionProfile& profile)
{
    SshTarget t;
    t.destination = profile.sshDestination;
    t.port = profile.sshPort;
    t.identity = profile.sshIdentity;
    t.configFile = qEnvironmentVariable("LIZARD_TEST_SSH_CONFIG");
    return t;
}

QString SshTarget::label() const
{
    return port > 0 ? QStringLiteral("%1:%2").arg(destination).arg(port) : destination;
}

QStringList SshTarget::options() const
{
    QStringList args;
    if (!configFile.isEmpty())
        args << QStringLiteral("-F") << configFile;
    if (port > 0)
        args << QStringLiteral("-p") << QString::number(port);
    if (!identity.isEmpty())
        args << QStringLiteral("-i") << identity;
    args << QStringLiteral("-T") << QStringLiteral("-o") << QStringLiteral("BatchMode=yes")
         << QStringLiteral("-o") << QStringLiteral("StrictHostKeyChecking=yes")
         << QStringLiteral("-o") << QStringLiteral("ConnectTimeout=15");
    return args;
}

QStringList SshTarget::overMaster(const QString& controlPath) const
{
    QStringList args;
    if (!configFile.isEmpty())
        args << QStringLiteral("-F") << configFile;
    args << QStringLiteral("-T") << QStringLiteral("-o") << QStringLiteral("BatchMode=yes")
         << QStringLiteral("-o") << QStringLiteral("ControlMaster=no") << QStringLiteral("-S")
         << controlPath;
    return args;
}

QString sshProgram()
{
    return program(QStringLiteral("ssh"));
}

QString keygenProgram()
{
    return program(QStringLiteral("ssh-keygen"));
}

QProcessEnvironment sshEnvironment()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C"));
    return env;
}

namespace {
QString said(const QByteArray& stderrText)
{
    const QString line = lastLine(stderrText);
    return line.isEmpty() ? QStringLiteral("ssh ended without saying why") : line;
}
} // namespace

Failure failure(const SshTarget& target, const QByteArray& stderrText)
{
    const QString host = target.label();
    Failure f;
    if (stderrText.contains("REMOTE HOST IDENTIFICATION HAS CHANGED") ||
        stderrText.contains("has changed and you have requested strict checking")) {
        f.kind = Failure::Kind::ChangedHostKey;
        f.message =
            QStringLiteral("The host key of %1 has CHANGED since you accepted it. Either the host "
                           "was reinstalled or someone is intercepting the connection. Not "
                           "connected. If the change is expected, remove the old key with "
                           "`ssh-keygen -R <host>` and connect again.")
                .arg(host);
    } else if (stderrText.contains("host key is known for") ||
               stderrText.contains("Host key verification failed")) {
        f.kind = Failure::Kind::UnknownHostKey;
        f.message = QStringLiteral("The host key of %1 is not known yet.").arg(host);
    } else if (stderrText.contains("Permission denied")) {
        f.kind = Failure::Kind::Refused;
        f.message = QStringLiteral("%1 refused the login (%2). The app uses your ssh keys: load "
                                   "one into ssh-agent or name an identity file.")
                        .arg(host, said(stderrText));
    } else if (stderrText.contains("Connection refused") ||
               stderrText.contains("Could not resolve hostname") ||
               stderrText.contains("timed out") || stderrText.contains("No route to host") ||
               stderrText.contains("Network is unreachable") ||
               stderrText.contains("Connection closed by") ||
               stderrText.contains("Connection reset")) {
        f.kind = Failure::Kind::Unreachable;
        f.message = QStringLiteral("%1 cannot be reached: %2").arg(host, said(stderrText));
    } else {
        f.message = QStringLiteral("ssh to %1 failed: %2").arg(host, said(stderrText));
    }
    return f;
}

} // namespace lizard::app::ssh
