#pragma once
// Host checks done once when the runtime starts.

#include <string>

namespace lizard::runtime {

// Missing host packages of the interpreter template (python3 modules outside /usr/local,
// since the sandbox gets its own empty /usr/local; node). Empty when complete.
std::string missingInterpreterPackages();

// Missing host packages of the desktop template (Debian package names). Empty when complete.
std::string missingDesktopPackages();

// Empty if this process may create a user namespace and map its own uid in it (what Ubuntu's
// AppArmor restriction forbids an unconfined program: the unshare works, the uid map does
// not), else "unshare(CLONE_NEWUSER): <reason>" or "uid_map: <reason>".
// LIZARD_TEST_HOST_PROBLEM (tests only) makes the probe, and the sysctls diagnoseUserns reads,
// answer as a host with that problem would: userns-disabled (user.max_user_namespaces = 0),
// userns-restricted (AppArmor's restriction, no profile of ours installed),
// userns-restricted-unloaded (our profile installed in /etc/apparmor.d but not loaded).
std::string probeUserNamespace();

// Why sandboxes cannot be made: a code per cause (the API's 503 code), what it means, and the
// command that fixes it.
struct HostProblem
{
    std::string code; // USERNS_DISABLED, USERNS_RESTRICTED, USERNS_UNAVAILABLE
    std::string message;
    std::string fix;
    // "<message> Fix: <fix>", as the log, the API and `lizard-local doctor` say it.
    std::string text() const { return fix.empty() ? message : message + " Fix: " + fix; }
};
// The cause of a failed probeUserNamespace (or template build): `error` is what failed.
HostProblem diagnoseUserns(const std::string& error);

// AppArmor as lizard-local sees it: whether it is on, whether it restricts unprivileged user
// namespaces, and whether our profiles (lizard-local, lizard-agent) are installed and loaded.
struct AppArmorState
{
    bool enabled = false;
    bool restrictsUserns = false;
    bool profileInstalled = false; // /etc/apparmor.d/lizard-agent
    bool profileLoaded = false;    // lizard-agent among the kernel's loaded profiles
};
AppArmorState appArmorState();

// How sandboxes get a network: slirp4netns, which needs /dev/net/tun usable by this user.
struct SlirpProbe
{
    std::string path;   // slirp4netns, or empty when sandboxes can have no network
    std::string whyNot; // when path is empty: the cause and the fix, for the log and errors
};
SlirpProbe findSlirp();

} // namespace lizard::runtime
