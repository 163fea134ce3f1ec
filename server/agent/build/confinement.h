#pragma once
// The last step before a sandbox's PID 1 serves requests: what it and every process it starts
// may do from then on. Capabilities are cut to Docker's default set (the non-root user gets
// none: changing uid from 0 clears them), no_new_privs is set, then the seccomp filter loads.

#include <string>

namespace lizard::agent {

// `diskWatched`: see LaunchConfig::diskWatched; `seccompProgram`: LaunchConfig::seccompProgram.
std::string confineSandbox(bool diskWatched, const std::string& seccompProgram);

// The allowedHosts DNS forwarder (dnsforwarder.h): every capability but CAP_NET_ADMIN (its
// rules) is gone from all sets, no_new_privs, then its own seccomp filter.
std::string confineDnsForwarder();

} // namespace lizard::agent
