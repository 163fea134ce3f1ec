#pragma once
// Where and how the app reaches an SSH host with Debian's OpenSSH client (/usr/bin/ssh as a
// child process): the arguments every ssh run shares, and what ssh's exit means for the user.

#include "models/connectionprofile.h"

#include <QByteArray>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace lizard::app::ssh {

struct SshTarget
{
    QString destination; // user@host, or a Host of the ssh configuration
    int port = 0;        // 0: ssh's choice (22 or the configuration's)
    QString identity;    // empty: the configuration's and the agent's keys
    // -F: a configuration file instead of ~/.ssh/config. Only for tests
    // (LIZARD_TEST_SSH_CONFIG; ssh takes ~ from the password database, not from $HOME).
    QString configFile;

    static SshTarget fromProfile(const models::ConnectionProfile& profile);
    // What the status bar and the connection list show: user@host, with :port when given.
    QString label() const;
    // The options of every ssh run for this host: no questions (BatchMode; a host key is
    // checked strictly, asking is the app's part), a connect timeout, -p, -i, -F.
    QStringList options() const;
    // A run over the master connection's control socket `controlPath` (no new login).
    QStringList overMaster(const QString& controlPath) const;
};

QString sshProgram();    // /usr/bin/ssh (else ssh on PATH)
QString keygenProgram(); // /usr/bin/ssh-keygen (else on PATH)
// ssh's children: the user's environment (the agent's socket) in the C locale, whose messages
// failure() reads.
QProcessEnvironment sshEnvironment();

struct Failure
{
    enum class Kind { UnknownHostKey, ChangedHostKey, Refused, Unreachable, Other };
    Kind kind = Kind::Other;
    QString message; // for the user, naming the host
};

// ssh's last line worth showing (not its warnings' banner of @ signs), or "".
QString lastLine(const QByteArray& stderrText);

// What ssh's standard error says went wrong with `target`.
Failure failure(const SshTarget& target, const QByteArray& stderrText);

} // namespace lizard::app::ssh
