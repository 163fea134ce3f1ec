#include "agent/build/sandboxroot.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace lizard::agent {

namespace {

std::string fdPath(int fd)
{
    // The launcher opened these on the host; the magic link works even where the path's
    // parents are not searchable for the sandbox's uids.
    return "/proc/self/fd/" + std::to_string(fd);
}

// /usr is copy-on-write like the root, so apt-get install works: the host's /usr is the
// lowest layer (an overlay never writes its lower layers) and what the sandbox writes lands in
// its own usr-upper. Idmapped (a root server), the host's files belong to the sandbox's root,
// so dpkg may replace them too. Otherwise they belong to no one the sandbox maps, and the
// template's copy of the directories (owned by the sandbox's root, templatebuilder.cpp) lies
// above them so that new files can be made there at least.
std::string mountUsr(const RootLayers& layers, const std::string& root, const std::string& dir)
{
    std::string lower = fdPath(layers.usrDirs) + ":/usr";
    // An overlay takes no layer from another mount namespace, and the detached mount is one:
    // it is given a place here first. The new root's /proc is an empty directory until proc
    // is mounted there, and the place is left again before then; the overlay keeps a private
    // copy of the layer, which nothing in the sandbox can reach.
    const std::string stage = root + "/proc";
    if (layers.hostUsr >= 0) {
        int rc = ::move_mount(layers.hostUsr, "", AT_FDCWD, stage.c_str(), MOVE_MOUNT_F_EMPTY_PATH);
        int err = errno;
        ::close(layers.hostUsr);
        if (rc != 0)
            return "placing the idmapped /usr: " + std::string(std::strerror(err));
        lower = stage;
    }
    const std::string options = "lowerdir=" + lower + ",upperdir=" + dir +
                                "/usr-upper,workdir=" + dir + "/usr-work,userxattr,xino=on";
    std::string e = mountOrError("overlay", root + "/usr", "overlay", 0, options);
    if (layers.hostUsr >= 0 && ::umount2(stage.c_str(), MNT_DETACH) != 0 && e.empty())
        e = "leaving the idmapped /usr's place: " + std::string(std::strerror(errno));
    return e;
}

} // namespace

unsigned long lockedMountFlags(const std::string& path)
{
    struct statvfs s
    {
    };
    if (::statvfs(path.c_str(), &s) != 0)
        return 0;
    unsigned long flags = 0;
    if (s.f_flag & ST_NOSUID)
        flags |= MS_NOSUID;
    if (s.f_flag & ST_NODEV)
        flags |= MS_NODEV;
    if (s.f_flag & ST_NOEXEC)
        flags |= MS_NOEXEC;
    if (s.f_flag & ST_NOATIME)
        flags |= MS_NOATIME;
    if (s.f_flag & ST_NODIRATIME)
        flags |= MS_NODIRATIME;
    if (s.f_flag & ST_RELATIME)
        flags |= MS_RELATIME;
    return flags;
}

std::string mountOrError(const char* source, const std::string& target, const char* type,
                         unsigned long flags, const std::string& data)
{
    if (::mount(source, target.c_str(), type, flags, data.empty() ? nullptr : data.c_str()) == 0)
        return {};
    return std::string("mount ") + (type ? type : "bind") + " " + (source ? source : "") + " on " +
           target + ": " + std::strerror(errno);
}

std::string setupSandboxRoot(const RootLayers& layers, int sandboxDirFd, int layerFd, int volumeFd,
                             bool volumeInitOwner, int shmMb)
{
    if (auto e = mountOrError(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, {}); !e.empty())
        return e;
    const std::string dir = fdPath(layerFd >= 0 ? layerFd : sandboxDirFd);
    const std::string root = fdPath(sandboxDirFd) + "/merged";
    // xino=on: the upper layer may be the sandbox's own disk, another file system than the
    // template's; without it files would report that file system's st_dev and directories the
    // overlay's, and tools that stay on one file system (nftw FTW_MOUNT, find -xdev) skip them.
    std::string options = "lowerdir=" + fdPath(layers.templateRoot) + ",upperdir=" + dir +
                          "/upper,workdir=" + dir + "/work,userxattr,xino=on";
    if (auto e = mountOrError("overlay", root, "overlay", 0, options); !e.empty())
        return e;
    if (auto e = mountUsr(layers, root, dir); !e.empty())
        return e;
    options = "lowerdir=" + fdPath(layers.usrLocal) + ",upperdir=" + dir +
              "/local-upper,workdir=" + dir + "/local-work,userxattr,xino=on";
    if (auto e = mountOrError("overlay", root + "/usr/local", "overlay", 0, options); !e.empty())
        return e;
    if (volumeFd >= 0) {
        if (auto e = bindVolume(root, volumeFd, volumeInitOwner); !e.empty())
            return e;
    }
    if (auto e = mountOrError("proc", root + "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, {});
        !e.empty())
        return e;
    if (auto e = setupDev(root, shmMb); !e.empty())
        return e;
    // sysfs is only allowed when the kernel deems it safe; the sandbox works without it.
    mountOrError("sysfs", root + "/sys", "sysfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, {});
    if (auto e = maskKernelFiles(root); !e.empty())
        return e;

    if (::chdir(root.c_str()) != 0)
        return "chdir to new root: " + std::string(std::strerror(errno));
    if (::syscall(SYS_pivot_root, ".", ".") != 0)
        return "pivot_root: " + std::string(std::strerror(errno));
    if (::umount2(".", MNT_DETACH) != 0)
        return "detaching the old root: " + std::string(std::strerror(errno));
    if (::chdir("/") != 0)
        return "chdir /: " + std::string(std::strerror(errno));
    return {};
}

} // namespace lizard::agent
