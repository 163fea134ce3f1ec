#pragma once
// Copies the contents of one directory into another, keeping what an overlayfs upper layer
// needs: file types (whiteouts are 0:0 character devices), modes, owners, user.* xattrs
// (user.overlay.opaque, redirect...), times and hard links. File data is shared with FICLONE
// where the file system can, else copied in the kernel (copy_file_range). Symlinks are copied
// as links, never followed; other mounts are not entered. Used by `lizard-agent copy` inside
// the sandboxes' user namespace (so owners map the same way as in the sandbox).

#include <cstdint>
#include <string>

namespace lizard::agent {

struct CopyStats
{
    uint64_t bytes = 0; // bytes of regular file data
    uint64_t entries = 0;
    uint64_t reflinked = 0; // files whose data was shared with FICLONE
};

// Copies everything inside `srcDirFd` into `dstDirFd` (an existing, empty directory) and
// gives the destination directory the source's mode, xattrs and times. Returns an error text,
// empty on success.
std::string copyTreeContents(int srcDirFd, int dstDirFd, CopyStats& stats);

} // namespace lizard::agent
