#pragma once
// Whether the data directory's file system has room for a write the API is about to make.
// Sandbox disks are sparse images in <data>/disks: a write inside a sandbox takes host space
// only when it happens, and a write-back the host cannot hold is lost after the call already
// answered (the loop device reports it to the kernel log, not to the caller). So the calls that
// write (create, snapshot, fork, file upload) refuse up front with INSUFFICIENT_STORAGE
// while less than a reserve is free (server/api/DECISIONS.md "Full disk").

#include "common/result.h"

#include <cstdint>
#include <string>

namespace lizard::sandboxes {

// Free space kept in reserve on the data directory's file system, in bytes.
constexpr uint64_t kStorageReserveBytes = 16ull << 20;

// OK when `dataDir`'s file system has `needBytes` plus the reserve free (for an unprivileged
// caller); else INSUFFICIENT_STORAGE saying how much is free where.
Status checkStorage(const std::string& dataDir, uint64_t needBytes = 0);

} // namespace lizard::sandboxes
