#pragma once
// Locks the sandbox's mounts: PID 1 moves into a child user namespace with the same ids and a
// copy of its mount namespace. The kernel locks every mount it copies into a namespace owned
// by a less privileged user namespace: read-only, nosuid, nodev and noexec can no longer be
// cleared and no mount can be taken off to uncover what lies beneath, even by root with
// CAP_SYS_ADMIN in the sandbox. The network, hostname and pid namespaces stay owned by the
// outer user namespace, so the sandbox's root cannot change them either.

#include <string>

namespace lizard::agent {

// Call in PID 1 after every mount and network change, before confineSandbox().
std::string lockMounts();

} // namespace lizard::agent
