#pragma once
// Host checks done once when the runtime starts.

#include <string>

namespace lizard::runtime {

// Missing host packages of the interpreter template (python3 modules outside /usr/local,
// since the sandbox gets its own empty /usr/local; node). Empty when complete.
std::string missingInterpreterPackages();

// Missing host packages of the desktop template (Debian package names). Empty when complete.
std::string missingDesktopPackages();

// Turns a failed user-namespace start into a message naming the cause and the fix.
// Empty if this process may create a user namespace, else "unshare(CLONE_NEWUSER): <reason>".
std::string probeUserNamespace();

std::string explainUsernsFailure(const std::string& error);

// How sandboxes get a network: slirp4netns, which needs /dev/net/tun usable by this user.
struct SlirpProbe
{
    std::string path;   // slirp4netns, or empty when sandboxes can have no network
    std::string whyNot; // when path is empty: the cause and the fix, for the log and errors
};
SlirpProbe findSlirp();

} // namespace lizard::runtime
