#pragma once
// What the quota file system's daemon may do once it serves: it parses what the kernel passes
// on from sandbox code, so it keeps only what its requests need. No new privileges; of its
// capabilities in the sandbox's user namespace only those a passthrough uses (owners, modes,
// permission overrides on the sandbox's files, file capabilities); where the kernel has
// Landlock, no file outside the layer directory may be opened, made or removed; and a seccomp
// filter of its own lets through only the calls its request loop makes.

#include <string>

namespace lizard::agent::quotafs {

// Before the threads start: working directory /proc/self/fd (quotafs.h), capabilities,
// no_new_privs, Landlock (skipped where the kernel has none). `backing`: the layer directory.
std::string confineQuotaFs(int backing);

// After the threads started: the seccomp filter, on every thread (TSYNC). A call off its list
// fails with EPERM (the request gets the error; the daemon lives on).
std::string installQuotaFsSeccomp();

// Whether Landlock confined the daemon (for its log line).
bool quotaFsLandlocked();

} // namespace lizard::agent::quotafs
