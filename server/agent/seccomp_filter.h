#pragma once
// The seccomp filter of every sandbox process (see server/runtime/README.md, "Confinement",
// for the lists and the reasons). Built with libseccomp.

#include <string>
#include <vector>

namespace lizard::agent {

// Loads the filter into the calling thread (inherited by every later child). Needs
// no_new_privs or CAP_SYS_ADMIN. Returns an error text, empty on success.
std::string installSandboxSeccomp();

// The names the filter allows and denies with EPERM (for tests and documentation).
const std::vector<const char*>& seccompAllowedNames();
const std::vector<const char*>& seccompDeniedNames();

} // namespace lizard::agent
