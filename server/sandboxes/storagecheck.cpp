#include "sandboxes/storagecheck.h"

#include <cerrno>
#include <cstring>
#include <sys/statvfs.h>

namespace lizard::sandboxes {

namespace {

std::string mib(uint64_t bytes)
{
    return std::to_string((bytes + (1u << 19)) >> 20) + " MiB";
}

} // namespace

Status checkStorage(const std::string& dataDir, uint64_t needBytes)
{
    if (dataDir.empty())
        return okStatus();
    struct statvfs fs
    {
    };
    if (::statvfs(dataDir.c_str(), &fs) != 0)
        return okStatus(); // not knowing is no reason to refuse; the write itself will tell
    const uint64_t free = uint64_t(fs.f_bavail) * fs.f_frsize;
    const uint64_t need = needBytes + kStorageReserveBytes;
    if (free >= need)
        return okStatus();
    return Error{ErrorKind::InsufficientStorage, "INSUFFICIENT_STORAGE",
                 "the file system of the data directory " + dataDir + " has " + mib(free) +
                     " free; this needs " + mib(need) + " (" + mib(needBytes) +
                     " plus a reserve of " + mib(kStorageReserveBytes) +
                     "). Free some space there (or delete sandboxes and snapshots) and retry"};
}

} // namespace lizard::sandboxes
