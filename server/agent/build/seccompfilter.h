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
//
// `program`: the same filter exported ahead (exportSandboxSeccomp), loaded as it is; empty:
// built here. lizard-local exports both variants once at its start, because building one takes
// libseccomp 1.5-2 ms of every sandbox's start.
std::string installSandboxSeccomp(bool refuseAllocation, const std::string& program = {});

// The filter installSandboxSeccomp() would build, as raw BPF (sock_filter instructions in
// native byte order), into `program`. Returns an error text, empty on success.
std::string exportSandboxSeccomp(bool refuseAllocation, std::string& program);

// The allowedHosts DNS forwarder's filter (dnsforwarder.h): it parses what sandbox code sends,
// so it may make only the calls its loop makes (UDP in and out, rtnetlink sockets for the
// rules, memory, time, its log); anything else kills it.
std::string installDnsForwarderSeccomp();

} // namespace lizard::agent
