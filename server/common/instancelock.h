#pragma once
// One lizard-local per data directory: an flock on <data-dir>/lock held for the process's life.

#include "common/result.h"

#include <string>

namespace lizard {

class InstanceLock
{
public:
    InstanceLock() = default;
    ~InstanceLock();
    InstanceLock(const InstanceLock&) = delete;
    InstanceLock& operator=(const InstanceLock&) = delete;

    // ALREADY_RUNNING (Conflict) when another process holds it; Internal when the file cannot be
    // opened.
    Status acquire(const std::string& path);

private:
    int m_fd = -1;
};

// Creates `dir` (and parents) if missing and makes it mode 0700; fails if it is not ours.
Status prepareDataDir(const std::string& dir);

} // namespace lizard
