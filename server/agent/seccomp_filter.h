#pragma once
// The seccomp filter of every sandbox process (see server/runtime/README.md, "Confinement",
// for the lists and the reasons). Built with libseccomp.

#include <string>

namespace lizard::agent {

// Loads the filter into the calling thread (inherited by every later child). Needs
// no_new_privs or CAP_SYS_ADMIN. Returns an error text, empty on success.
std::string installSandboxSeccomp();

} // namespace lizard::agent
