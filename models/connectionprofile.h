#pragma once
// A place the app can connect to: the built-in lizard-local, a Lizard cloud account, or the
// lizard-local of another computer reached over SSH. The API key is not part of the profile: a
// cloud key lives in the key store (keychain or 0600 file); an SSH host's is read over SSH.

#include <QString>

namespace lizard::models {

struct ConnectionProfile
{
    enum class Kind { Local, Cloud, Ssh };
    QString id;   // stable, e.g. "local" or "cloud-1"
    QString name; // shown to the user
    Kind kind = Kind::Local;
    QString url; // cloud: base URL; local: empty (found at connect time)
    // The user confirmed, in the Connections dialog's warning, that the key may go to `url`
    // over plain http:// (not needed for https:// or loopback).
    bool keyInClearConfirmed = false;
    // Cloud: PEM file of an extra certificate authority to trust (a company's TLS-inspecting
    // proxy); empty: LIZARD_CA_BUNDLE from the environment, else only the system's.
    QString caFile;
    // SSH host: `user@host` (or a Host of ~/.ssh/config), the port (0: ssh's own choice, 22 or
    // the config's) and an identity file (empty: the config's and the agent's keys).
    QString sshDestination;
    int sshPort = 0;
    QString sshIdentity;

    static ConnectionProfile local()
    {
        return {QStringLiteral("local"),
                QStringLiteral("Local (lizard-local)"),
                Kind::Local,
                {},
                false,
                {},
                {},
                0,
                {}};
    }
};

} // namespace lizard::models
