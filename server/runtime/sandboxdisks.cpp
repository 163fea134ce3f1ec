#include "runtime/sandboxdisks.h"

#include "common/log.h"
#include "runtime/ext4image.h"
#include "runtime/hostcommand.h"
#include "runtime/loopdevice.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

namespace lizard::runtime {

namespace {

constexpr long long kDiskGiB = 1024LL * 1024 * 1024;
// A killed sandbox's mount namespace lets go of the loop device shortly after its last process.
constexpr int kDiskReleaseWaitMs = 5000;
// Bump when the mkfs options change: old golden images are then simply not used.
constexpr const char* kGoldenVersion = "v2";
// From linux/ext4.h (not in every distribution's uapi headers).
constexpr unsigned long kExt4IocShutdown = _IOR('X', 125, std::uint32_t);
constexpr std::uint32_t kExt4GoingNoLogFlush = 0x2;

Error diskError(const std::string& what)
{
    return Error{ErrorKind::Internal, "SANDBOX_DISK_FAILED", what + ": " + std::strerror(errno)};
}

// No journal: the layer dies with its sandbox (a host crash loses the sandbox anyway), and
// no resize inode: sandbox disks never grow; both keep the image's metadata to a few hundred
// KiB. The storage behind a new sparse file reads as zeros, so nothing needs zeroing later.
std::vector<std::string> mkfsOptions(const IdMapping& ids, bool prezeroed)
{
    std::string extended =
        "root_owner=" + std::to_string(ids.hostRoot) + ":" + std::to_string(ids.hostRootGid);
    extended += prezeroed ? ",assume_storage_prezeroed=1" : ",lazy_itable_init=1";
    return {"-b", "4096",  "-m", "0", "-L", "lizard-sandbox", "-O", "^has_journal,^resize_inode",
            "-E", extended};
}

// The layer is about to be deleted: writing its dirty pages to the image first (what an
// unmount does) would cost the host I/O for nothing. Shutting the file system down drops
// them. Only when `mountPoint` really is the root of the ext4 on `img`'s loop device: the
// same ioctl on the host's own file system would take it down.
void discardWrites(const std::string& img, const std::string& mountPoint)
{
    const std::string device = loopDeviceOf(img);
    struct stat dev
    {
    };
    if (device.empty() || ::stat(device.c_str(), &dev) != 0 || !S_ISBLK(dev.st_mode))
        return;
    int fd = ::open(mountPoint.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return;
    struct stat st
    {
    };
    struct statfs fs
    {
    };
    std::uint32_t flags = kExt4GoingNoLogFlush;
    if (::fstat(fd, &st) == 0 && st.st_dev == dev.st_rdev && ::fstatfs(fd, &fs) == 0 &&
        fs.f_type == EXT4_SUPER_MAGIC)
        ::ioctl(fd, kExt4IocShutdown, &flags);
    ::close(fd);
}

} // namespace

SandboxDisks::SandboxDisks(std::string dataDir, IdMapping ids, std::vector<std::string> layout)
    : m_root(std::move(dataDir) + "/disks"), m_ids(std::move(ids)), m_layout(std::move(layout))
{
    m_mkfs = findHostProgram("mkfs.ext4");
    if (!loopDevicesUsable(m_note))
        return;
    if (m_mkfs.empty()) {
        m_note = "mkfs.ext4 is missing (Debian: apt install e2fsprogs)";
        return;
    }
    m_note = probeExt4Mount(m_mkfs, m_root);
    if (!m_note.empty())
        return;
    // The default size's golden image now, so the first create does not pay for mkfs.
    auto made = golden(kDefaultGb);
    m_enforce = bool(made);
    if (!made)
        m_note = made.error().message;
    else
        startPool();
}

SandboxDisks::~SandboxDisks()
{
    stopPool();
}

Result<std::string> SandboxDisks::golden(int sizeGb)
{
    const std::string path =
        m_root + "/.golden-" + kGoldenVersion + "-" + std::to_string(sizeGb) + "g.img";
    std::lock_guard lock(m_goldenMutex);
    if (::access(path.c_str(), F_OK) == 0)
        return path;
    // Formatted under a temporary name: a crash never leaves a half-made golden image.
    const std::string staging = path + ".tmp-" + std::to_string(::getpid());
    ::unlink(staging.c_str());
    Status s = makeExt4Image(m_mkfs, staging, sizeGb * kDiskGiB, mkfsOptions(m_ids, true),
                             "SANDBOX_DISK_FAILED");
    if (!s) // e2fsprogs before 1.47 lacks assume_storage_prezeroed
        s = makeExt4Image(m_mkfs, staging, sizeGb * kDiskGiB, mkfsOptions(m_ids, false),
                          "SANDBOX_DISK_FAILED");
    if (s && ::rename(staging.c_str(), path.c_str()) != 0)
        s = diskError("rename " + staging);
    if (!s) {
        ::unlink(staging.c_str());
        return s.error();
    }
    return path;
}

Status SandboxDisks::attach(const std::string& id, int sizeGb, const std::string& mountPoint)
{
    if (!m_enforce)
        return okStatus();
    if (sizeGb < kMinGb || sizeGb > kMaxGb)
        return Error{ErrorKind::InvalidArgument, "INVALID_ARGUMENT",
                     "the disk size must be " + std::to_string(kMinGb) + ".." +
                         std::to_string(kMaxGb) + " GiB"};
    Status made = sizeGb == kDefaultGb && takeFromPool(id, mountPoint)
                      ? okStatus()
                      : prepare(image(id), sizeGb, mountPoint);
    if (made) {
        std::lock_guard lock(m_sizesMutex);
        m_sizes[id] = sizeGb;
    }
    return made;
}

Status SandboxDisks::prepare(const std::string& img, int sizeGb, const std::string& mountPoint)
{
    auto from = golden(sizeGb);
    if (!from)
        return from.error();
    if (Status s = copySparseFile(*from, img); !s)
        return Error{ErrorKind::Internal, "SANDBOX_DISK_FAILED", s.error().message};
    Status s = mountImage(img, mountPoint, true);
    if (!s) {
        ::unlink(img.c_str());
        return Error{ErrorKind::Internal, "SANDBOX_DISK_FAILED", s.error().message};
    }
    // mkfs's lost+found is e2fsck's, which makes it again when it needs it; the mount's root
    // stands in for the sandbox directory (0700, the sandbox's root).
    ::rmdir((mountPoint + "/lost+found").c_str());
    bool ok = ::chmod(mountPoint.c_str(), 0700) == 0 &&
              ::chown(mountPoint.c_str(), m_ids.hostRoot, m_ids.hostRootGid) == 0;
    for (size_t i = 0; ok && i < m_layout.size(); ++i) {
        const std::string dir = mountPoint + "/" + m_layout[i];
        ok = ::mkdir(dir.c_str(), 0755) == 0 &&
             ::chown(dir.c_str(), m_ids.hostRoot, m_ids.hostRootGid) == 0;
    }
    if (!ok) {
        s = diskError("preparing " + mountPoint);
        ::umount2(mountPoint.c_str(), MNT_DETACH);
        ::unlink(img.c_str());
        return s;
    }
    return okStatus();
}

void SandboxDisks::release(const std::string& id, const std::string& mountPoint)
{
    {
        std::lock_guard lock(m_sizesMutex);
        m_sizes.erase(id);
    }
    const std::string img = image(id);
    if (::access(img.c_str(), F_OK) != 0)
        return;
    discardWrites(img, mountPoint);
    // Detached, so a process still inside (a copy helper) cannot keep the mount point busy.
    ::umount2(mountPoint.c_str(), MNT_DETACH | UMOUNT_NOFOLLOW);
    if (!waitLoopReleased(img, kDiskReleaseWaitMs))
        log::warn("sandbox " + id +
                  ": its disk's loop device is still busy; it is freed when released");
    ::unlink(img.c_str());
}

int SandboxDisks::sizeGb(const std::string& id) const
{
    if (!m_enforce)
        return 0;
    std::lock_guard lock(m_sizesMutex);
    if (const auto known = m_sizes.find(id); known != m_sizes.end())
        return known->second;
    struct stat st
    {
    };
    if (::stat(image(id).c_str(), &st) != 0)
        return 0;
    return m_sizes[id] = int(st.st_size / kDiskGiB);
}

std::vector<std::string> SandboxDisks::ids() const
{
    std::vector<std::string> out;
    if (DIR* dir = ::opendir(m_root.c_str())) {
        while (dirent* e = ::readdir(dir)) {
            const std::string name = e->d_name;
            if (name[0] != '.' && name.size() > 4 && name.compare(name.size() - 4, 4, ".img") == 0)
                out.push_back(name.substr(0, name.size() - 4));
        }
        ::closedir(dir);
    }
    return out;
}

} // namespace lizard::runtime
