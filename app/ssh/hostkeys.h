#pragma once
// The first meeting with an SSH host, as ssh itself has it: the key the host presents, shown by
// its fingerprint for the user to compare, and added to the user's known_hosts only when they
// accept it. Later connections check it strictly (a changed key is refused, sshtarget.h).

#include "app/ssh/sshtarget.h"

#include <QObject>
#include <QStringList>
#include <functional>

namespace lizard::app::ssh {

struct PresentedKey
{
    QByteArray knownHostsLines; // as ssh writes them, for the user's known_hosts
    QStringList fingerprints;   // ssh-keygen -lf: "256 SHA256:… [host]:port (ED25519)"
};

class HostKeys : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    // Reads the key `target` presents with ssh itself (so its configuration's HostName, Port,
    // ProxyJump… apply), accepting it into a known_hosts file of this probe's own, then its
    // fingerprints. `done` gets the key, or an error.
    void probe(const SshTarget& target,
               std::function<void(const PresentedKey& key, const QString& error)> done);
    // Appends `key` to the known_hosts file ssh uses for `target` (ssh -G's first
    // userknownhostsfile, created 0600 in a 0700 folder when missing).
    static bool trust(const SshTarget& target, const PresentedKey& key, QString* error);
    // That file.
    static QString userKnownHostsFile(const SshTarget& target);
};

} // namespace lizard::app::ssh
