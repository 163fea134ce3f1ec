#pragma once
// A place the app can connect to: the built-in lizard-local or a Lizard cloud account.
// The API key is not part of the profile; it lives in the key store (keychain or 0600 file).

#include <QString>

namespace lizard::models {

struct ConnectionProfile
{
    enum class Kind { Local, Cloud };
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

    static ConnectionProfile local()
    {
        return {QStringLiteral("local"),
                QStringLiteral("Local (lizard-local)"),
                Kind::Local,
                {},
                false,
                {}};
    }
};

} // namespace lizard::models
