#pragma once
// ext4 images on loop devices for size-enforced volumes (root only): mount an image, find the
// loop device that still backs it, and grow a mounted one online.

#include "common/result.h"

#include <string>
#include <sys/types.h>

namespace lizard::runtime {

// True when this process can set up loop devices (root with /dev/loop-control).
bool loopDevicesUsable(std::string& whyNot);

// Attaches `image` to a free loop device (auto-cleared once unmounted) and mounts it
// (ext4, nosuid, nodev) on `mountPoint`. `directIo`: the loop device reads and writes the
// image with O_DIRECT and 4096-byte sectors (the file system's blocks must be 4096), so its
// pages are not cached twice (3-4x the write throughput); buffered where the host refuses.
Status mountImage(const std::string& image, const std::string& mountPoint, bool directIo = false);

// "/dev/loopN" still backed by `image`, or "" (an old mount is gone once this is "").
std::string loopDeviceOf(const std::string& image);

// Waits until no loop device backs `image` (a killed sandbox's mount is released lazily).
bool waitLoopReleased(const std::string& image, int timeoutMs);

// Grows the ext4 file system of `image` (already truncated to its new size), mounted at
// `mountedDir` (a path the host can open, e.g. /proc/<pid>/root/workspace), online.
Status growMountedImage(const std::string& image, const std::string& mountedDir);

} // namespace lizard::runtime
