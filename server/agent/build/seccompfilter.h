#pragma once
// The seccomp filter of every sandbox process (see server/runtime/README.md, "Confinement",
// for the lists and the reasons). Built with libseccomp.

#include <string>

namespace lizard::agent {

// Loads the filter into the calling thread (inherited by every later child). Needs
// no_new_privs or CAP_SYS_ADMIN. Returns an error text, empty on success.
//
// `refuseAllocation`: fallocate() that reserves space fails with EOPNOTSUPP (punching holes,
// which frees space, still works). Where only the disk watch bounds the layer, one
// fallocate of 500 GB would fill the host's disk between two measures; refused, glibc's
// posix_fallocate falls back to writing the blocks, which the watch then stops like any write.
std::string installSandboxSeccomp(bool refuseAllocation);

// The allowedHosts DNS forwarder's filter (dnsforwarder.h): it parses what sandbox code sends,
// so it may make only the calls its loop makes (UDP in and out, rtnetlink sockets for the
// rules, memory, time, its log); anything else kills it.
std::string installDnsForwarderSeccomp();

} // namespace lizard::agent
