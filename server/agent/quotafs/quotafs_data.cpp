// QuotaFs: requests on an inode (attributes, open files, data, directories, extended
// attributes). What can allocate blocks (write, fallocate, setxattr) reserves them first and is
// refused with ENOSPC past the bound; every such change is then recounted from st_blocks.
#include "agent/quotafs/quotafs.h"
#include "agent/quotafs/quotafsutil.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <dirent.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

namespace lizard::agent::quotafs {

namespace {

// Bytes of [offset, offset + length) that no block backs yet (holes, past the end), in whole
// blocks, plus one for a partly covered block at either end. Bounded work: a file of very many
// extents counts what is left after 1024 of them as unallocated.
std::int64_t unallocated(int fd, std::int64_t offset, std::int64_t length)
{
    const std::int64_t end = offset + length;
    std::int64_t pos = offset, missing = 0;
    for (int i = 0; pos < end; ++i) {
        if (i == 1024) {
            missing += end - pos;
            break;
        }
        const off_t data = ::lseek(fd, pos, SEEK_DATA);
        if (data < 0) { // ENXIO: nothing but hole from pos on
            missing += end - pos;
            break;
        }
        if (data > pos) {
            missing += std::min<std::int64_t>(data, end) - pos;
            pos = data;
            continue;
        }
        const off_t hole = ::lseek(fd, pos, SEEK_HOLE);
        if (hole <= pos)
            break;
        pos = hole;
    }
    return missing == 0 ? 0 : roundUp(missing, kBlock) + kBlock;
}

// The handle `fh` if it belongs to node `id`.
std::shared_ptr<Handle> handleOf(const HandleTable& handles, std::uint64_t fh, std::uint64_t id)
{
    auto h = handles.get(fh);
    return h && h->node->id == id ? h : nullptr;
}

} // namespace

void QuotaFs::getattr(Request& r, FuseReply& reply)
{
    fuse_getattr_in in{};
    r.body.take(in); // absent in old protocols: no handle then
    int err = 0;
    NodeTable::Ref node = m_nodes.acquire(r.header.nodeid, err);
    if (!node)
        return reply.fail(err);
    struct stat st;
    if (::fstat(node.fd(), &st) != 0)
        return reply.fail(errno);
    fuse_attr_out out{};
    out.attr_valid = kCacheSeconds;
    fillAttr(out.attr, st);
    reply.add(out);
}

void QuotaFs::setattr(Request& r, FuseReply& reply)
{
    fuse_setattr_in in{};
    if (!r.body.take(in))
        return reply.fail(EINVAL);
    int err = 0;
    NodeTable::Ref node = m_nodes.acquire(r.header.nodeid, err);
    if (!node)
        return reply.fail(err);
    std::shared_ptr<Handle> h =
        (in.valid & FATTR_FH) ? handleOf(m_handles, in.fh, node->id) : nullptr;
    const std::string entry = procEntry(node.fd());
    const bool link = node->type == S_IFLNK;
    if ((in.valid & FATTR_MODE) && !link &&
        (h ? ::fchmod(h->fd, in.mode & 07777)
           : ::fchmodat(AT_FDCWD, entry.c_str(), in.mode & 07777, 0)) != 0)
        return reply.fail(errno);
    if (in.valid & (FATTR_UID | FATTR_GID)) {
        const uid_t uid = (in.valid & FATTR_UID) ? uid_t(in.uid) : uid_t(-1);
        const gid_t gid = (in.valid & FATTR_GID) ? gid_t(in.gid) : gid_t(-1);
        if (::fchownat(node.fd(), "", uid, gid, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) != 0)
            return reply.fail(errno);
    }
    if (in.valid & FATTR_SIZE) {
        if (node->type != S_IFREG)
            return reply.fail(node->type == S_IFDIR ? EISDIR : EINVAL);
        // Growing a file allocates nothing (a hole), but no file may be larger than its disk.
        if (std::int64_t(in.size) > m_account.limits().bytes)
            return reply.fail(ENOSPC);
        std::lock_guard lock(inodeLock(node->ino));
        const int rc =
            h ? ::ftruncate(h->fd, off_t(in.size)) : ::truncate(entry.c_str(), off_t(in.size));
        if (rc != 0)
            return reply.fail(errno);
        recount(node.get(), node.fd());
    }
    if (in.valid & (FATTR_ATIME | FATTR_MTIME)) {
        timespec times[2];
        times[0] = (in.valid & FATTR_ATIME_NOW) ? timespec{0, UTIME_NOW}
                   : (in.valid & FATTR_ATIME)   ? timespec{time_t(in.atime), long(in.atimensec)}
                                                : timespec{0, UTIME_OMIT};
        times[1] = (in.valid & FATTR_MTIME_NOW) ? timespec{0, UTIME_NOW}
                   : (in.valid & FATTR_MTIME)   ? timespec{time_t(in.mtime), long(in.mtimensec)}
                                                : timespec{0, UTIME_OMIT};
        const int rc =
            h ? ::futimens(h->fd, times) : ::utimensat(AT_FDCWD, entry.c_str(), times, 0);
        if (rc != 0)
            return reply.fail(errno);
    }
    struct stat st;
    if (::fstat(node.fd(), &st) != 0)
        return reply.fail(errno);
    fuse_attr_out out{};
    out.attr_valid = kCacheSeconds;
    fillAttr(out.attr, st);
    reply.add(out);
}

void QuotaFs::readlink(Request& r, FuseReply& reply)
{
    int err = 0;
    NodeTable::Ref node = m_nodes.acquire(r.header.nodeid, err);
    if (!node)
        return reply.fail(err);
    if (node->type != S_IFLNK)
        return reply.fail(EINVAL);
    char* out = reply.room(PATH_MAX);
    if (!out)
        return reply.fail(EIO);
    const ssize_t n = ::readlinkat(node.fd(), "", out, PATH_MAX);
    if (n < 0)
        return reply.fail(errno);
    reply.grow(std::size_t(n));
}

void QuotaFs::open(Request& r, FuseReply& reply, bool dir)
{
    fuse_open_in in{};
    if (!r.body.take(in))
        return reply.fail(EINVAL);
    int err = 0;
    NodeTable::Ref node = m_nodes.acquire(r.header.nodeid, err);
    if (!node)
        return reply.fail(err);
    // Only regular files and directories are opened here: the kernel opens devices, fifos and
    // sockets itself, and none is ever opened on the daemon's side.
    if (node->type != (dir ? S_IFDIR : S_IFREG))
        return reply.fail(dir ? ENOTDIR : EINVAL);
    const int flags = dir ? O_RDONLY | O_DIRECTORY
                          : (int(in.flags) & O_ACCMODE) |
                                (int(in.flags) & (O_NONBLOCK | O_SYNC | O_DSYNC | O_NOATIME));
    const int fd = ::openat(AT_FDCWD, procEntry(node.fd()).c_str(), flags | O_CLOEXEC);
    if (fd < 0)
        return reply.fail(errno);
    m_nodes.opened(node.get());
    fuse_open_out out{};
    out.fh = m_handles.add(std::make_shared<Handle>(fd, node.get(), dir));
    // Nothing changes the files behind the kernel's back: its page cache stays valid, and a
    // directory's listing may be cached too (the kernel drops it when the directory changes).
    out.open_flags = FOPEN_KEEP_CACHE | (dir ? FOPEN_CACHE_DIR : 0);
    reply.add(out);
}

void QuotaFs::release(Request& r, FuseReply& reply)
{
    fuse_release_in in{};
    if (!r.body.take(in))
        return reply.fail(EINVAL);
    auto h = handleOf(m_handles, in.fh, r.header.nodeid);
    if (!h)
        return reply.fail(EBADF);
    m_handles.take(in.fh);
    m_nodes.closed(h->node);
}

void QuotaFs::read(Request& r, FuseReply& reply)
{
    fuse_read_in in{};
    if (!r.body.take(in))
        return reply.fail(EINVAL);
    auto h = handleOf(m_handles, in.fh, r.header.nodeid);
    if (!h || h->dir)
        return reply.fail(EBADF);
    const std::size_t size = std::min<std::size_t>(in.size, reply.bodyRoom());
    const ssize_t n = ::pread(h->fd, reply.room(size), size, off_t(in.offset));
    if (n < 0)
        return reply.fail(errno);
    reply.grow(std::size_t(n));
}

void QuotaFs::write(Request& r, FuseReply& reply)
{
    fuse_write_in in{};
    if (!r.body.take(in))
        return reply.fail(EINVAL);
    const char* data = r.body.bytes(in.size);
    if (!data || in.offset > std::uint64_t(LLONG_MAX) - in.size)
        return reply.fail(EINVAL);
    auto h = handleOf(m_handles, in.fh, r.header.nodeid);
    if (!h || h->dir)
        return reply.fail(EBADF);
    std::lock_guard lock(inodeLock(h->node->ino));
    std::size_t size = in.size;
    const auto offset = std::int64_t(in.offset);
    // Room for the whole write (and a block for its ends) in one step when there is plenty;
    // near the bound, only what is not allocated yet, and past it as much as still fits.
    std::int64_t reserved = roundUp(std::int64_t(size), kBlock) + kBlock;
    if (!m_account.reserveBytes(reserved)) {
        reserved = unallocated(h->fd, offset, std::int64_t(size));
        if (!m_account.reserveBytes(reserved)) {
            const std::int64_t fits = (m_account.freeBytes() - kBlock) / kBlock * kBlock;
            if (fits <= 0)
                return reply.fail(ENOSPC);
            size = std::min<std::size_t>(size, std::size_t(fits));
            reserved = std::int64_t(size) + kBlock;
            if (!m_account.reserveBytes(reserved))
                return reply.fail(ENOSPC);
        }
    }
    const ssize_t n = ::pwrite(h->fd, data, size, offset);
    const int err = errno;
    recount(h->node, h->fd, reserved);
    if (n < 0)
        return reply.fail(err);
    fuse_write_out out{};
    out.size = std::uint32_t(n);
    reply.add(out);
}

void QuotaFs::fsync(Request& r, FuseReply& reply)
{
    fuse_fsync_in in{};
    if (!r.body.take(in))
        return reply.fail(EINVAL);
    auto h = handleOf(m_handles, in.fh, r.header.nodeid);
    if (!h)
        return reply.fail(EBADF);
    if (((in.fsync_flags & FUSE_FSYNC_FDATASYNC) ? ::fdatasync(h->fd) : ::fsync(h->fd)) != 0)
        reply.fail(errno);
}

void QuotaFs::fallocate(Request& r, FuseReply& reply)
{
    fuse_fallocate_in in{};
    if (!r.body.take(in))
        return reply.fail(EINVAL);
    if (in.offset > std::uint64_t(LLONG_MAX) || in.length > std::uint64_t(LLONG_MAX) - in.offset)
        return reply.fail(EFBIG);
    auto h = handleOf(m_handles, in.fh, r.header.nodeid);
    if (!h || h->dir)
        return reply.fail(EBADF);
    std::lock_guard lock(inodeLock(h->node->ino));
    // Punching a hole or collapsing a range frees space; anything else may allocate the range.
    const bool frees = in.mode & (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_COLLAPSE_RANGE);
    std::int64_t reserved = 0;
    if (!frees) {
        reserved = unallocated(h->fd, std::int64_t(in.offset), std::int64_t(in.length));
        if (!m_account.reserveBytes(reserved))
            return reply.fail(ENOSPC);
    }
    const int rc = ::fallocate(h->fd, int(in.mode), off_t(in.offset), off_t(in.length));
    const int err = errno;
    recount(h->node, h->fd, reserved);
    if (rc != 0)
        reply.fail(err);
}

void QuotaFs::lseek(Request& r, FuseReply& reply)
{
    fuse_lseek_in in{};
    if (!r.body.take(in))
        return reply.fail(EINVAL);
    auto h = handleOf(m_handles, in.fh, r.header.nodeid);
    if (!h || h->dir)
        return reply.fail(EBADF);
    if (in.whence != SEEK_DATA && in.whence != SEEK_HOLE)
        return reply.fail(EINVAL); // the kernel seeks by itself otherwise
    const off_t at = ::lseek(h->fd, off_t(in.offset), int(in.whence));
    if (at < 0)
        return reply.fail(errno);
    fuse_lseek_out out{};
    out.offset = std::uint64_t(at);
    reply.add(out);
}

void QuotaFs::readdir(Request& r, FuseReply& reply)
{
    fuse_read_in in{};
    if (!r.body.take(in))
        return reply.fail(EINVAL);
    auto h = handleOf(m_handles, in.fh, r.header.nodeid);
    if (!h || !h->dir)
        return reply.fail(EBADF);
    std::lock_guard lock(h->mutex);
    if (std::int64_t(in.offset) != h->offset) { // a seek (rewinddir, telldir/seekdir)
        if (::lseek(h->fd, off_t(in.offset), SEEK_SET) < 0)
            return reply.fail(errno);
        h->pos = h->end = 0;
        h->offset = std::int64_t(in.offset);
    }
    const std::size_t limit = std::min<std::size_t>(in.size, reply.bodyRoom());
    std::size_t used = 0;
    h->entries.resize(32768);
    for (;;) {
        if (h->pos >= h->end) {
            const long n = ::syscall(SYS_getdents64, h->fd, h->entries.data(), h->entries.size());
            if (n < 0) {
                if (used == 0)
                    return reply.fail(errno);
                break;
            }
            if (n == 0)
                break; // the end
            h->pos = 0;
            h->end = std::size_t(n);
        }
        const auto* e = reinterpret_cast<const struct dirent64*>(h->entries.data() + h->pos);
        const std::size_t nameLen = std::strlen(e->d_name);
        const std::size_t size = FUSE_DIRENT_ALIGN(FUSE_NAME_OFFSET + nameLen);
        if (used + size > limit)
            break;
        fuse_dirent d{};
        d.ino = e->d_ino;
        d.off = std::uint64_t(e->d_off);
        d.namelen = std::uint32_t(nameLen);
        d.type = e->d_type;
        char* out = reply.room(size);
        std::memset(out, 0, size);
        std::memcpy(out, &d, FUSE_NAME_OFFSET);
        std::memcpy(out + FUSE_NAME_OFFSET, e->d_name, nameLen);
        reply.grow(size);
        used += size;
        h->offset = e->d_off;
        h->pos += e->d_reclen;
    }
}

void QuotaFs::setxattr(Request& r, FuseReply& reply)
{
    // Without FUSE_SETXATTR_EXT the body starts with size and flags only.
    std::uint32_t size = 0, flags = 0;
    if (!r.body.take(size) || !r.body.take(flags))
        return reply.fail(EINVAL);
    const char* name = r.body.string();
    const char* value = r.body.bytes(size);
    if (!name || !value)
        return reply.fail(EINVAL);
    int err = 0;
    NodeTable::Ref node = m_nodes.acquire(r.header.nodeid, err);
    if (!node)
        return reply.fail(err);
    std::lock_guard lock(inodeLock(node->ino));
    const std::int64_t reserved =
        roundUp(std::int64_t(size) + std::int64_t(std::strlen(name)), kBlock);
    if (!m_account.reserveBytes(reserved))
        return reply.fail(ENOSPC);
    const int rc = ::setxattr(procEntry(node.fd()).c_str(), name, value, size, int(flags));
    err = errno;
    recount(node.get(), node.fd(), reserved);
    if (rc != 0)
        reply.fail(err);
}

void QuotaFs::getxattr(Request& r, FuseReply& reply, bool list)
{
    fuse_getxattr_in in{};
    if (!r.body.take(in))
        return reply.fail(EINVAL);
    const char* name = list ? "" : r.body.string();
    if (!name)
        return reply.fail(EINVAL);
    int err = 0;
    NodeTable::Ref node = m_nodes.acquire(r.header.nodeid, err);
    if (!node)
        return reply.fail(err);
    const std::string entry = procEntry(node.fd());
    const std::size_t size = std::min<std::size_t>(in.size, reply.bodyRoom());
    char* out = size > 0 ? reply.room(size) : nullptr;
    const ssize_t n =
        list ? ::listxattr(entry.c_str(), out, size) : ::getxattr(entry.c_str(), name, out, size);
    if (n < 0)
        return reply.fail(errno);
    if (in.size == 0) { // the size it needs
        fuse_getxattr_out o{};
        o.size = std::uint32_t(n);
        reply.add(o);
        return;
    }
    reply.grow(std::size_t(n));
}

void QuotaFs::removexattr(Request& r, FuseReply& reply)
{
    const char* name = r.body.string();
    if (!name)
        return reply.fail(EINVAL);
    int err = 0;
    NodeTable::Ref node = m_nodes.acquire(r.header.nodeid, err);
    if (!node)
        return reply.fail(err);
    std::lock_guard lock(inodeLock(node->ino));
    if (::removexattr(procEntry(node.fd()).c_str(), name) != 0)
        return reply.fail(errno);
    recount(node.get(), node.fd());
}

} // namespace lizard::agent::quotafs
