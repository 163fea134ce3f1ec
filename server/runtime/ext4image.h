#pragma once
// Sparse ext4 image files, shared by volumes (volumestorage) and sandbox disks
// (sandboxdisks.h): create and format one, copy one without its holes, and check once whether
// this host can mount one at all. Blocking calls; root only where they mount.

#include "common/result.h"

#include <string>
#include <vector>

namespace lizard::runtime {

// Creates `image` (must not exist) as a sparse file of `sizeBytes` and runs
// `mkfs -q -F <mkfsOptions...> image`. The file is removed again when mkfs fails.
Status makeExt4Image(const std::string& mkfs, const std::string& image, long long sizeBytes,
                     const std::vector<std::string>& mkfsOptions, const std::string& errorCode);

// Copies `from` into the new file `to` (must not exist): shares the blocks (FICLONE) where
// the file system can, else copies only the data extents (SEEK_DATA/SEEK_HOLE), so a 10 GiB
// freshly formatted image costs its few hundred KiB of metadata. `to` keeps `from`'s size.
Status copySparseFile(const std::string& from, const std::string& to);

// Formats and mounts a tiny image in `workDir` (created if needed) and cleans up: "" when
// that works, else why not. Root may still be unable to mount (a container without
// CAP_SYS_ADMIN, a seccomp profile).
std::string probeExt4Mount(const std::string& mkfs, const std::string& workDir);

} // namespace lizard::runtime
