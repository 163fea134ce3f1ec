#pragma once
// Mounts the sandbox's root file system and pivots into it (runs in PID 1, root of the
// sandbox's user namespace, in its fresh mount namespace).

#include <string>

namespace lizard::agent {

// Returns an empty string or what failed.
std::string setupSandboxRoot(int templateRootFd, int usrLocalFd, int sandboxDirFd);

// /dev for the sandbox under `root` (sandbox_dev.cpp).
std::string setupDev(const std::string& root);

// mount(2) with the error as text.
std::string mountOrError(const char* source, const std::string& target, const char* type,
                         unsigned long flags, const std::string& data);

} // namespace lizard::agent
