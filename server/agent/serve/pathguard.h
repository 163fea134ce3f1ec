#pragma once
// Path resolution for the files API that never passes through /proc's magic links
// (/proc/<pid>/fd/N, root, cwd, exe, map_files). Those lead to objects outside the sandbox's
// root, such as PID 1's own log file on the host, and their link text names host paths.

#include <string>
#include <sys/types.h>

namespace lizard::agent {

// open(2) of `path`, except that a magic link anywhere on the way fails with ELOOP
// (openat2 with RESOLVE_NO_MAGICLINKS; on kernels without it, the opened file must be the one
// its own path names from the sandbox's root, which an object outside the root is not).
int openNoMagic(const std::string& path, int flags, mode_t mode = 0);

// 0 when the directory holding `path` is reached without a magic link, else an errno
// (ELOOP for a magic link).
int checkParent(const std::string& path);

// True when an ELOOP from openNoMagic(path) came from a magic link, not a loop of links.
bool reachedThroughMagicLink(const std::string& path, int err);

// True when `path` is itself a magic link: its target must not be shown.
bool isMagicLink(const std::string& path);

// The message for a refused path.
std::string magicLinkMessage(const std::string& path);

} // namespace lizard::agent
