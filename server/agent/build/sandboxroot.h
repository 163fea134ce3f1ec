#pragma once
// Mounts the sandbox's root file system and pivots into it (runs in PID 1, root of the
// sandbox's user namespace, in its fresh mount namespace).

#include <string>

namespace lizard::agent {

// Docker's and Podman's /dev/shm size (server/api/DECISIONS.md, "tmpfs").
inline constexpr int kDefaultShmMb = 64;

// The template's directories (descriptors) the sandbox's overlays lie on.
struct RootLayers
{
    int templateRoot = -1; // lower layer of /
    int usrDirs = -1;      // middle layer of /usr, above the host's /usr
    int usrLocal = -1;     // lower layer of /usr/local
    // The host's /usr idmapped to the sandbox's ids (hostusr.h), a detached mount; -1: the
    // host's /usr as it is, below usrDirs. Consumed (moved, then detached and closed).
    int hostUsr = -1;
};

// Returns an empty string or what failed. `layerFd` holds the overlays' upper and work
// directories: the sandbox directory itself (-1), or the quota file system mounted on it
// (quotamount.h). `volumeFd` (-1: none) is bound at /workspace; `shmMb` bounds /dev/shm
// (setupDev).
std::string setupSandboxRoot(const RootLayers& layers, int sandboxDirFd, int layerFd = -1,
                             int volumeFd = -1, bool volumeInitOwner = false,
                             int shmMb = kDefaultShmMb);

// Binds the volume (descriptor `volumeFd`) at <root>/workspace, nosuid and nodev; `initOwner`
// gives it to uid/gid 1000 (sandboxvolume.cpp). Before the pivot.
std::string bindVolume(const std::string& root, int volumeFd, bool initOwner);

// /dev for the sandbox under `root` (sandboxdev.cpp), with a /dev/shm of `shmMb` MiB. Every
// tmpfs of a sandbox has a size and an inode count: the kernel's default (half the host's RAM)
// would let a sandbox hold host memory that no rlimit counts.
std::string setupDev(const std::string& root, int shmMb);

// Hides and write-protects the host kernel's files in <root>/proc and <root>/sys
// (kernelmasks.cpp). After /proc, /sys and /dev are mounted.
std::string maskKernelFiles(const std::string& root);

// The flags a bind remount of `path` in a user namespace must keep (the kernel locks them).
unsigned long lockedMountFlags(const std::string& path);

// mount(2) with the error as text.
std::string mountOrError(const char* source, const std::string& target, const char* type,
                         unsigned long flags, const std::string& data);

} // namespace lizard::agent
