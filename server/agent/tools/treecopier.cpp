#include "agent/tools/treecopier.h"

#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <map>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace lizard::agent {

namespace {

class Copier
{
public:
    Copier(int dstRootFd, dev_t device, CopyStats& stats)
        : m_dstRoot(dstRootFd), m_device(device), m_stats(stats)
    {
    }

    std::string copyChildren(int srcFd, int dstFd, const std::string& rel);
    std::string copyMeta(int srcDirFd, int dstDirFd, const char* name, const struct stat& st);

private:
    std::string copyEntry(int srcFd, int dstFd, const char* name, const std::string& rel);
    std::string copyRegular(int srcFd, int dstFd, const char* name, const struct stat& st);

    int m_dstRoot;
    dev_t m_device;
    CopyStats& m_stats;
    std::map<std::pair<dev_t, ino_t>, std::string> m_links; // hard links: first copy's path
};

std::string err(const std::string& what, int e)
{
    return what + ": " + std::strerror(e);
}

std::string procPath(int dirFd, const char* name)
{
    std::string p = "/proc/self/fd/" + std::to_string(dirFd);
    if (name && *name)
        p += std::string("/") + name;
    return p;
}

// user.* attributes carry the overlay's own state (opaque dirs, redirects): losing one would
// change what the copy shows, so failing to set it fails the copy. Others (security.*,
// trusted.* that a user namespace may not set) are best effort.
std::string copyXattrs(int srcDirFd, int dstDirFd, const char* name)
{
    const std::string src = procPath(srcDirFd, name), dst = procPath(dstDirFd, name);
    ssize_t len = ::llistxattr(src.c_str(), nullptr, 0);
    if (len <= 0)
        return {};
    std::vector<char> names(size_t(len) + 1);
    len = ::llistxattr(src.c_str(), names.data(), names.size());
    if (len < 0)
        return {};
    std::vector<char> value;
    for (ssize_t i = 0; i < len; i += ssize_t(std::strlen(&names[size_t(i)])) + 1) {
        const char* key = &names[size_t(i)];
        const bool vital = std::strncmp(key, "user.", 5) == 0;
        ssize_t vlen = ::lgetxattr(src.c_str(), key, nullptr, 0);
        if (vlen < 0) {
            if (vital)
                return err(std::string("reading ") + key, errno);
            continue;
        }
        value.resize(size_t(vlen) + 1);
        vlen = ::lgetxattr(src.c_str(), key, value.data(), value.size());
        if ((vlen < 0 || ::lsetxattr(dst.c_str(), key, value.data(), size_t(vlen), 0) != 0) &&
            vital)
            return err(std::string("copying ") + key, errno);
    }
    return {};
}

bool copyData(int in, int out, uint64_t size, CopyStats& stats)
{
    if (::ioctl(out, FICLONE, in) == 0) {
        ++stats.reflinked;
        return true;
    }
    uint64_t done = 0;
    while (done < size) {
        ssize_t n = ::copy_file_range(in, nullptr, out, nullptr, size - done, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && done == 0 &&
            (errno == EXDEV || errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP))
            break; // not supported here: plain reads and writes below
        if (n < 0)
            return false;
        if (n == 0)
            return true; // the file shrank while copied (a live source): keep what was there
        done += uint64_t(n);
    }
    if (done >= size)
        return true;
    std::vector<char> buf(1 << 20);
    for (;;) {
        ssize_t n = ::read(in, buf.data(), buf.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n == 0;
        for (ssize_t off = 0; off < n;) {
            ssize_t w = ::write(out, buf.data() + off, size_t(n - off));
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                return false;
            off += w;
        }
    }
}

std::string Copier::copyMeta(int srcDirFd, int dstDirFd, const char* name, const struct stat& st)
{
    const int flags = AT_SYMLINK_NOFOLLOW | (*name ? 0 : AT_EMPTY_PATH);
    // EINVAL: the owner is not mapped in this namespace (a single-uid mapping): keep ours.
    if (::fchownat(dstDirFd, name, st.st_uid, st.st_gid, flags) != 0 && errno != EINVAL)
        return err(std::string("chown ") + name, errno);
    if (!S_ISLNK(st.st_mode)) {
        const std::string path = procPath(dstDirFd, name);
        if (::chmod(path.c_str(), st.st_mode & 07777) != 0) // after chown, which clears setuid
            return err(std::string("chmod ") + name, errno);
    }
    if (auto e = copyXattrs(srcDirFd, dstDirFd, name); !e.empty())
        return std::string(name) + ": " + e;
    const struct timespec times[2] = {st.st_atim, st.st_mtim};
    if (*name)
        ::utimensat(dstDirFd, name, times, AT_SYMLINK_NOFOLLOW);
    else
        ::utimensat(AT_FDCWD, procPath(dstDirFd, nullptr).c_str(), times, 0);
    return {};
}

std::string Copier::copyRegular(int srcFd, int dstFd, const char* name, const struct stat& st)
{
    int in = ::openat(srcFd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (in < 0)
        return err(std::string("open ") + name, errno);
    int out = ::openat(dstFd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (out < 0) {
        int e = errno;
        ::close(in);
        return err(std::string("create ") + name, e);
    }
    bool ok = copyData(in, out, uint64_t(st.st_size), m_stats);
    int e = errno;
    ::close(in);
    if (::close(out) != 0 && ok) {
        ok = false;
        e = errno;
    }
    if (!ok)
        return err(std::string("copy ") + name, e);
    m_stats.bytes += uint64_t(st.st_size);
    return {};
}

std::string Copier::copyEntry(int srcFd, int dstFd, const char* name, const std::string& rel)
{
    struct stat st
    {
    };
    if (::fstatat(srcFd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return errno == ENOENT ? std::string() : err(std::string("stat ") + name, errno);
    ++m_stats.entries;
    const std::string path = rel.empty() ? name : rel + "/" + name;
    if (S_ISDIR(st.st_mode)) {
        if (st.st_dev != m_device)
            return {}; // a mount point: never enter another file system
        if (::mkdirat(dstFd, name, 0700) != 0)
            return err("mkdir " + path, errno);
        int s = ::openat(srcFd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        int d = ::openat(dstFd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        std::string e = s < 0 || d < 0 ? err("open " + path, errno) : copyChildren(s, d, path);
        if (s >= 0)
            ::close(s);
        if (d >= 0)
            ::close(d);
        return e.empty() ? copyMeta(srcFd, dstFd, name, st) : e;
    }
    if (S_ISREG(st.st_mode) && st.st_nlink > 1) {
        const auto key = std::make_pair(st.st_dev, st.st_ino);
        if (const auto it = m_links.find(key); it != m_links.end()) {
            if (::linkat(m_dstRoot, it->second.c_str(), dstFd, name, 0) != 0)
                return err("link " + path, errno);
            return {};
        }
        m_links[key] = path;
    }
    std::string e;
    if (S_ISREG(st.st_mode)) {
        e = copyRegular(srcFd, dstFd, name, st);
    } else if (S_ISLNK(st.st_mode)) {
        std::vector<char> target(size_t(st.st_size) + 2);
        ssize_t n = ::readlinkat(srcFd, name, target.data(), target.size() - 1);
        if (n < 0)
            return err("readlink " + path, errno);
        target[size_t(n)] = '\0';
        if (::symlinkat(target.data(), dstFd, name) != 0)
            return err("symlink " + path, errno);
    } else if (::mknodat(dstFd, name, st.st_mode & (S_IFMT | 07777), st.st_rdev) != 0) {
        // fifos, sockets and overlay whiteouts (0:0 character devices) only
        return err("mknod " + path, errno);
    }
    return e.empty() ? copyMeta(srcFd, dstFd, name, st) : e;
}

std::string Copier::copyChildren(int srcFd, int dstFd, const std::string& rel)
{
    int fd = ::openat(srcFd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return err("open " + (rel.empty() ? std::string(".") : rel), errno);
    DIR* dir = ::fdopendir(fd);
    if (!dir) {
        ::close(fd);
        return err("opendir " + rel, errno);
    }
    std::vector<std::string> names;
    while (dirent* e = ::readdir(dir)) {
        if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0)
            names.emplace_back(e->d_name);
    }
    ::closedir(dir);
    for (const auto& n : names) {
        if (auto e = copyEntry(srcFd, dstFd, n.c_str(), rel); !e.empty())
            return e;
    }
    return {};
}

} // namespace

std::string copyTreeContents(int srcDirFd, int dstDirFd, CopyStats& stats)
{
    struct stat st
    {
    };
    if (::fstat(srcDirFd, &st) != 0)
        return err("stat source", errno);
    Copier copier(dstDirFd, st.st_dev, stats);
    if (auto e = copier.copyChildren(srcDirFd, dstDirFd, ""); !e.empty())
        return e;
    return copier.copyMeta(srcDirFd, dstDirFd, "", st);
}

} // namespace lizard::agent
