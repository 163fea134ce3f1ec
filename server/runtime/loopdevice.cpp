#include "runtime/loopdevice.h"

#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <linux/loop.h>
#include <linux/magic.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <thread>
#include <unistd.h>

namespace lizard::runtime {

namespace {

constexpr unsigned long kExt4ResizeFs = _IOW('f', 16, unsigned long long); // EXT4_IOC_RESIZE_FS

Error loopError(const std::string& what)
{
    return Error{ErrorKind::Internal, "VOLUME_MOUNT_FAILED", what + ": " + std::strerror(errno)};
}

std::string realPath(const std::string& path)
{
    char buf[PATH_MAX];
    return ::realpath(path.c_str(), buf) ? std::string(buf) : path;
}

// Opens /dev/loopN, creating the node when the container's /dev lacks it.
int openLoop(int n)
{
    const std::string dev = "/dev/loop" + std::to_string(n);
    int fd = ::open(dev.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT &&
        ::mknod(dev.c_str(), S_IFBLK | 0660, makedev(7, unsigned(n))) == 0)
        fd = ::open(dev.c_str(), O_RDWR | O_CLOEXEC);
    return fd;
}

} // namespace

bool loopDevicesUsable(std::string& whyNot)
{
    if (::geteuid() != 0) {
        whyNot = "lizard-local does not run as root, and only root can mount an ext4 image";
        return false;
    }
    int ctl = ::open("/dev/loop-control", O_RDWR | O_CLOEXEC);
    if (ctl < 0) {
        whyNot = std::string("/dev/loop-control: ") + std::strerror(errno);
        return false;
    }
    ::close(ctl);
    return true;
}

Status mountImage(const std::string& image, const std::string& mountPoint, bool directIo)
{
    int ctl = ::open("/dev/loop-control", O_RDWR | O_CLOEXEC);
    if (ctl < 0)
        return loopError("/dev/loop-control");
    int file = ::open(image.c_str(), O_RDWR | O_CLOEXEC);
    if (file < 0) {
        ::close(ctl);
        return loopError(image);
    }
    Status result = Error{ErrorKind::Internal, "VOLUME_MOUNT_FAILED", "no free loop device"};
    for (int attempt = 0; attempt < 10; ++attempt) {
        const int n = ::ioctl(ctl, LOOP_CTL_GET_FREE);
        if (n < 0) {
            result = loopError("LOOP_CTL_GET_FREE");
            break;
        }
        int dev = openLoop(n);
        if (dev < 0) {
            result = loopError("/dev/loop" + std::to_string(n));
            break;
        }
        loop_config config{};
        config.fd = unsigned(file);
        config.info.lo_flags = LO_FLAGS_AUTOCLEAR | (directIo ? LO_FLAGS_DIRECT_IO : 0);
        config.block_size = directIo ? 4096 : 0;
        std::strncpy(reinterpret_cast<char*>(config.info.lo_file_name), realPath(image).c_str(),
                     LO_NAME_SIZE - 1);
        bool configured = ::ioctl(dev, LOOP_CONFIGURE, &config) == 0;
        if (!configured && errno == EINVAL && directIo) { // a backing file system without O_DIRECT
            config.info.lo_flags = LO_FLAGS_AUTOCLEAR;
            config.block_size = 0;
            configured = ::ioctl(dev, LOOP_CONFIGURE, &config) == 0;
        }
        if (!configured) {
            const int err = errno;
            ::close(dev);
            if (err == EBUSY)
                continue; // another process took it meanwhile
            errno = err;
            result = loopError("LOOP_CONFIGURE");
            break;
        }
        const std::string path = "/dev/loop" + std::to_string(n);
        if (::mount(path.c_str(), mountPoint.c_str(), "ext4", MS_NOSUID | MS_NODEV, nullptr) != 0) {
            result = loopError("mount " + path + " on " + mountPoint);
            ::ioctl(dev, LOOP_CLR_FD, 0);
        } else {
            result = okStatus();
        }
        ::close(dev); // autoclear: the device detaches when the file system is unmounted
        break;
    }
    ::close(file);
    ::close(ctl);
    return result;
}

std::string loopDeviceOf(const std::string& image)
{
    const std::string target = realPath(image);
    std::string found;
    if (DIR* dir = ::opendir("/sys/block")) {
        while (dirent* e = ::readdir(dir)) {
            const std::string name = e->d_name;
            if (name.rfind("loop", 0) != 0)
                continue;
            std::ifstream in("/sys/block/" + name + "/loop/backing_file");
            std::string backing;
            if (std::getline(in, backing) && backing == target) {
                found = "/dev/" + name;
                break;
            }
        }
        ::closedir(dir);
    }
    return found;
}

bool waitLoopReleased(const std::string& image, int timeoutMs)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    while (!loopDeviceOf(image).empty()) {
        if (std::chrono::steady_clock::now() >= deadline)
            return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return true;
}

Status growMountedImage(const std::string& image, const std::string& mountedDir)
{
    const std::string device = loopDeviceOf(image);
    if (device.empty())
        return Error{ErrorKind::Internal, "VOLUME_RESIZE_FAILED", "no loop device backs " + image};
    int dev = ::open(device.c_str(), O_RDONLY | O_CLOEXEC);
    if (dev < 0)
        return loopError(device);
    struct stat devStat
    {
    };
    const bool capacity = ::fstat(dev, &devStat) == 0 && ::ioctl(dev, LOOP_SET_CAPACITY, 0) == 0;
    const int capacityErr = errno;
    ::close(dev);
    if (!capacity) {
        errno = capacityErr;
        return loopError("LOOP_SET_CAPACITY " + device);
    }
    // The path is inside the sandbox: make sure it is that very ext4 before the ioctl.
    int dir = ::open(mountedDir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dir < 0)
        return loopError(mountedDir);
    struct statfs fs
    {
    };
    struct stat st
    {
    };
    if (::fstatfs(dir, &fs) != 0 || fs.f_type != EXT4_SUPER_MAGIC || ::fstat(dir, &st) != 0 ||
        st.st_dev != devStat.st_rdev) {
        ::close(dir);
        return Error{ErrorKind::Internal, "VOLUME_RESIZE_FAILED",
                     "the sandbox no longer has the volume mounted at /workspace"};
    }
    struct stat img
    {
    };
    unsigned long long blocks = 0;
    if (::stat(image.c_str(), &img) == 0 && fs.f_bsize > 0)
        blocks = static_cast<unsigned long long>(img.st_size) /
                 static_cast<unsigned long long>(fs.f_bsize);
    const bool ok = blocks > 0 && ::ioctl(dir, kExt4ResizeFs, &blocks) == 0;
    const int err = errno;
    ::close(dir);
    if (!ok) {
        errno = err;
        return Error{ErrorKind::Internal, "VOLUME_RESIZE_FAILED",
                     std::string("online resize of the ext4 volume: ") + std::strerror(err)};
    }
    return okStatus();
}

} // namespace lizard::runtime
