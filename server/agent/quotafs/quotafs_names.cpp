// QuotaFs: requests that name an entry of a directory (lookup, create, remove, rename, link).
#include "agent/quotafs/quotafs.h"
#include "agent/quotafs/quotafsutil.h"

#include <cerrno>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/stat.h>
#include <unistd.h>

namespace lizard::agent::quotafs {

namespace {

// The parent directory of a request and the name in it, both checked.
struct Place
{
    NodeTable::Ref dir;
    const char* name = nullptr;
    int err = 0;
};

Place placeOf(NodeTable& nodes, std::uint64_t id, const char* name)
{
    Place p;
    if (!name || !validName(name)) {
        p.err = name && std::strlen(name) > kNameMax ? ENAMETOOLONG : EINVAL;
        return p;
    }
    p.dir = nodes.acquire(id, p.err);
    if (p.dir && p.dir->type != S_IFDIR) {
        p.dir.reset();
        p.err = ENOTDIR;
    }
    p.name = name;
    return p;
}

} // namespace

void QuotaFs::lookup(Request& r, FuseReply& reply)
{
    Place p = placeOf(m_nodes, r.header.nodeid, r.body.string());
    if (!p.dir)
        return reply.fail(p.err);
    const int fd = ::openat(p.dir.fd(), p.name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        if (errno != ENOENT)
            return reply.fail(errno);
        // A negative entry the kernel may keep: overlayfs looks up every lower name in the
        // upper layer, and most are not there.
        fuse_entry_out out{};
        out.entry_valid = kCacheSeconds;
        reply.add(out);
        return;
    }
    struct stat st;
    if (::fstat(fd, &st) != 0 || st.st_dev != m_dev) {
        const int err = errno;
        ::close(fd);
        // Another file system mounted inside the backing directory: not this layer's.
        return reply.fail(st.st_dev != m_dev ? EXDEV : err);
    }
    replyEntry(p.dir->id, p.name, fd, st, false, reply);
}

void QuotaFs::mknod(Request& r, FuseReply& reply)
{
    fuse_mknod_in in{};
    if (!r.body.take(in))
        return reply.fail(EINVAL);
    Place p = placeOf(m_nodes, r.header.nodeid, r.body.string());
    if (!p.dir)
        return reply.fail(p.err);
    const mode_t type = in.mode & S_IFMT;
    if (type != S_IFREG && type != S_IFCHR && type != S_IFBLK && type != S_IFIFO &&
        type != S_IFSOCK)
        return reply.fail(EINVAL);
    // overlayfs marks a deleted lower file with a whiteout: a character device 0/0.
    const bool whiteout = type == S_IFCHR && in.rdev == 0;
    if (!whiteout && m_account.freeBytes() < kBlock)
        return reply.fail(ENOSPC);
    if (!m_account.takeInode(whiteout))
        return reply.fail(ENOSPC);
    if (::mknodat(p.dir.fd(), p.name, in.mode, dev_t(in.rdev)) != 0) {
        const int err = errno;
        m_account.freeInodes(1);
        return reply.fail(err);
    }
    const int fd = ::openat(p.dir.fd(), p.name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return reply.fail(errno);
    finishCreate(r, p.dir, p.name, fd, in.mode, reply, true);
}

void QuotaFs::mkdir(Request& r, FuseReply& reply)
{
    fuse_mkdir_in in{};
    if (!r.body.take(in))
        return reply.fail(EINVAL);
    Place p = placeOf(m_nodes, r.header.nodeid, r.body.string());
    if (!p.dir)
        return reply.fail(p.err);
    if (m_account.freeBytes() < kBlock || !m_account.takeInode(false))
        return reply.fail(ENOSPC);
    if (::mkdirat(p.dir.fd(), p.name, in.mode & 07777) != 0) {
        const int err = errno;
        m_account.freeInodes(1);
        return reply.fail(err);
    }
    const int fd = ::openat(p.dir.fd(), p.name, O_PATH | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return reply.fail(errno);
    finishCreate(r, p.dir, p.name, fd, S_IFDIR | (in.mode & 07777), reply, true);
}

void QuotaFs::symlink(Request& r, FuseReply& reply)
{
    const char* name = r.body.string();
    const char* target = r.body.string();
    if (!target || *target == '\0')
        return reply.fail(EINVAL);
    Place p = placeOf(m_nodes, r.header.nodeid, name);
    if (!p.dir)
        return reply.fail(p.err);
    if (m_account.freeBytes() < kBlock || !m_account.takeInode(false))
        return reply.fail(ENOSPC);
    if (::symlinkat(target, p.dir.fd(), p.name) != 0) {
        const int err = errno;
        m_account.freeInodes(1);
        return reply.fail(err);
    }
    const int fd = ::openat(p.dir.fd(), p.name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return reply.fail(errno);
    finishCreate(r, p.dir, p.name, fd, S_IFLNK | 0777, reply, true);
}

void QuotaFs::link(Request& r, FuseReply& reply)
{
    fuse_link_in in{};
    if (!r.body.take(in))
        return reply.fail(EINVAL);
    Place p = placeOf(m_nodes, r.header.nodeid, r.body.string());
    if (!p.dir)
        return reply.fail(p.err);
    int err = 0;
    NodeTable::Ref old = m_nodes.acquire(in.oldnodeid, err);
    if (!old)
        return reply.fail(err);
    if (old->type == S_IFDIR)
        return reply.fail(EPERM);
    if (m_account.freeBytes() < kBlock) // the new entry may need a directory block
        return reply.fail(ENOSPC);
    if (::linkat(AT_FDCWD, procEntry(old.fd()).c_str(), p.dir.fd(), p.name, AT_SYMLINK_FOLLOW) != 0)
        return reply.fail(errno);
    const int fd = ::openat(p.dir.fd(), p.name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || ::fstat(fd, &st) != 0) {
        err = errno;
        if (fd >= 0)
            ::close(fd);
        return reply.fail(err);
    }
    {
        std::lock_guard lock(inodeLock(p.dir->ino));
        recount(p.dir.get(), p.dir.fd());
    }
    replyEntry(p.dir->id, p.name, fd, st, false, reply);
}

void QuotaFs::unlink(Request& r, FuseReply& reply, bool dir)
{
    Place p = placeOf(m_nodes, r.header.nodeid, r.body.string());
    if (!p.dir)
        return reply.fail(p.err);
    struct stat st;
    if (::fstatat(p.dir.fd(), p.name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return reply.fail(errno);
    m_nodes.beforeRemoval(st.st_ino, p.dir->id, p.name);
    if (::unlinkat(p.dir.fd(), p.name, dir ? AT_REMOVEDIR : 0) != 0)
        return reply.fail(errno);
    m_nodes.removed(st.st_ino, dir || st.st_nlink <= 1 ? 0 : st.st_nlink - 1,
                    std::int64_t(st.st_blocks) * 512);
    std::lock_guard lock(inodeLock(p.dir->ino));
    recount(p.dir.get(), p.dir.fd());
}

void QuotaFs::rename(Request& r, FuseReply& reply, bool withFlags)
{
    std::uint64_t newDir = 0;
    std::uint32_t flags = 0;
    if (withFlags) {
        fuse_rename2_in in{};
        if (!r.body.take(in))
            return reply.fail(EINVAL);
        newDir = in.newdir;
        flags = in.flags;
    } else {
        fuse_rename_in in{};
        if (!r.body.take(in))
            return reply.fail(EINVAL);
        newDir = in.newdir;
    }
    if (flags & ~(RENAME_NOREPLACE | RENAME_EXCHANGE | RENAME_WHITEOUT))
        return reply.fail(EINVAL);
    const char* oldName = r.body.string();
    const char* newName = r.body.string();
    Place from = placeOf(m_nodes, r.header.nodeid, oldName);
    if (!from.dir)
        return reply.fail(from.err);
    Place to = placeOf(m_nodes, newDir, newName);
    if (!to.dir)
        return reply.fail(to.err);
    struct stat moving, replaced;
    if (::fstatat(from.dir.fd(), from.name, &moving, AT_SYMLINK_NOFOLLOW) != 0)
        return reply.fail(errno);
    const bool replaces = ::fstatat(to.dir.fd(), to.name, &replaced, AT_SYMLINK_NOFOLLOW) == 0 &&
                          replaced.st_ino != moving.st_ino;
    if (replaces && !(flags & RENAME_EXCHANGE))
        m_nodes.beforeRemoval(replaced.st_ino, to.dir->id, to.name);
    // RENAME_WHITEOUT leaves a whiteout where the old name was: a new inode.
    const bool whiteout = flags & RENAME_WHITEOUT;
    if (whiteout && !m_account.takeInode(true))
        return reply.fail(ENOSPC);
    if (::renameat2(from.dir.fd(), from.name, to.dir.fd(), to.name, flags) != 0) {
        const int err = errno;
        if (whiteout)
            m_account.freeInodes(1);
        return reply.fail(err);
    }
    m_nodes.renamed(moving.st_ino, to.dir->id, to.name);
    if (replaces && (flags & RENAME_EXCHANGE))
        m_nodes.renamed(replaced.st_ino, from.dir->id, from.name);
    else if (replaces)
        m_nodes.removed(replaced.st_ino,
                        S_ISDIR(replaced.st_mode) || replaced.st_nlink <= 1 ? 0
                                                                            : replaced.st_nlink - 1,
                        std::int64_t(replaced.st_blocks) * 512);
    for (Place* p : {&from, &to}) {
        std::lock_guard lock(inodeLock(p->dir->ino));
        recount(p->dir.get(), p->dir.fd());
    }
}

void QuotaFs::create(Request& r, FuseReply& reply)
{
    fuse_create_in in{};
    if (!r.body.take(in))
        return reply.fail(EINVAL);
    Place p = placeOf(m_nodes, r.header.nodeid, r.body.string());
    if (!p.dir)
        return reply.fail(p.err);
    if (m_account.freeBytes() < kBlock || !m_account.takeInode(false))
        return reply.fail(ENOSPC);
    // The kernel places writes itself (O_APPEND included) and never asks for direct I/O here.
    const int access = int(in.flags) & O_ACCMODE;
    const int extra = int(in.flags) & (O_NONBLOCK | O_SYNC | O_DSYNC | O_NOATIME);
    bool created = true;
    int file =
        ::openat(p.dir.fd(), p.name, access | extra | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                 in.mode & 07777);
    if (file < 0 && errno == EEXIST && !(in.flags & O_EXCL)) {
        m_account.freeInodes(1);
        created = false;
        file = ::openat(p.dir.fd(), p.name, access | extra | O_NOFOLLOW | O_CLOEXEC);
    }
    if (file < 0) {
        const int err = errno;
        if (created)
            m_account.freeInodes(1);
        return reply.fail(err);
    }
    struct stat st;
    if (::fstat(file, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(file);
        return reply.fail(EINVAL);
    }
    const int fd = ::openat(p.dir.fd(), p.name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        const int err = errno;
        ::close(file);
        return reply.fail(err);
    }
    const std::uint64_t id =
        finishCreate(r, p.dir, p.name, fd, S_IFREG | (in.mode & 07777), reply, created);
    if (id == 0) {
        ::close(file);
        return;
    }
    int err = 0;
    NodeTable::Ref node = m_nodes.acquire(id, err);
    if (!node) {
        ::close(file);
        return reply.fail(err);
    }
    m_nodes.opened(node.get());
    fuse_open_out open{};
    open.fh = m_handles.add(std::make_shared<Handle>(file, node.get(), false));
    open.open_flags = FOPEN_KEEP_CACHE;
    reply.add(open);
}

} // namespace lizard::agent::quotafs
