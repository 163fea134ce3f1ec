#include "agent/quotafs/quotafs.h"

#include "agent/quotafs/quotafsutil.h"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace lizard::agent::quotafs {

namespace {

struct stat statOf(int fd)
{
    struct stat st
    {
    };
    ::fstat(fd, &st);
    return st;
}

// What the daemon asks of the kernel: parallel lookups and reads, writes of up to kMaxWrite,
// symlink targets cached. Not asked: the writeback cache (host-side snapshots read the backing
// files, so a write must be there when it returns), export support, locks (the kernel keeps
// POSIX and flock locks itself, as for any local file system), ACLs.
constexpr std::uint32_t kWanted =
    FUSE_ASYNC_READ | FUSE_BIG_WRITES | FUSE_MAX_PAGES | FUSE_PARALLEL_DIROPS | FUSE_CACHE_SYMLINKS;

} // namespace

QuotaFs::QuotaFs(int rootFd, const QuotaFsOptions& options)
    : m_account(options.limits, options.usedBytes, options.usedInodes),
      m_dev(statOf(rootFd).st_dev),
      m_nodes(rootFd, statOf(rootFd),
              // Every inode the layer may hold, what it holds already, and a margin for the
              // whiteouts of deletions.
              std::size_t(std::max(options.limits.inodes, options.usedInodes) +
                          m_account.whiteoutReserve() + 64),
              options.maxFds, m_account)
{
}

void QuotaFs::handle(const char* request, std::size_t len, FuseReply& reply)
{
    fuse_in_header h{};
    if (len < sizeof h) {
        reply.start(0);
        reply.none();
        return;
    }
    std::memcpy(&h, request, sizeof h);
    reply.start(h.unique);
    // Extensions (security contexts, supplementary groups) follow the body; none is asked for,
    // so a request with them is read as if they were not there.
    const std::size_t ext = std::size_t(h.total_extlen) * 8;
    if (h.len != len || len - sizeof h < ext) {
        reply.fail(EINVAL);
        return;
    }
    Request r{h, RequestBody(request + sizeof h, len - sizeof h - ext)};
    if (m_minor == 0 && h.opcode != FUSE_INIT) {
        reply.fail(EIO); // nothing before the handshake
        return;
    }
    switch (h.opcode) {
    case FUSE_INIT:
        return init(r, reply);
    case FUSE_DESTROY:
        m_destroyed = true;
        return;
    case FUSE_FORGET:
        reply.none();
        return forget(r);
    case FUSE_BATCH_FORGET:
        reply.none();
        return batchForget(r);
    case FUSE_INTERRUPT:
        // Every request finishes in bounded time (local system calls): the kernel gets its
        // answer soon enough, interrupted or not.
        reply.none();
        return;
    case FUSE_STATFS:
        return statfs(reply);
    case FUSE_LOOKUP:
        return lookup(r, reply);
    case FUSE_MKNOD:
        return mknod(r, reply);
    case FUSE_MKDIR:
        return mkdir(r, reply);
    case FUSE_SYMLINK:
        return symlink(r, reply);
    case FUSE_LINK:
        return link(r, reply);
    case FUSE_UNLINK:
        return unlink(r, reply, false);
    case FUSE_RMDIR:
        return unlink(r, reply, true);
    case FUSE_RENAME:
        return rename(r, reply, false);
    case FUSE_RENAME2:
        return rename(r, reply, true);
    case FUSE_CREATE:
        return create(r, reply);
    case FUSE_GETATTR:
        return getattr(r, reply);
    case FUSE_SETATTR:
        return setattr(r, reply);
    case FUSE_READLINK:
        return readlink(r, reply);
    case FUSE_OPEN:
        return open(r, reply, false);
    case FUSE_OPENDIR:
        return open(r, reply, true);
    case FUSE_READ:
        return read(r, reply);
    case FUSE_WRITE:
        return write(r, reply);
    case FUSE_RELEASE:
    case FUSE_RELEASEDIR:
        return release(r, reply);
    case FUSE_FLUSH:
        return; // nothing is buffered here
    case FUSE_FSYNC:
    case FUSE_FSYNCDIR:
        return fsync(r, reply);
    case FUSE_FALLOCATE:
        return fallocate(r, reply);
    case FUSE_LSEEK:
        return lseek(r, reply);
    case FUSE_READDIR:
        return readdir(r, reply);
    case FUSE_SETXATTR:
        return setxattr(r, reply);
    case FUSE_GETXATTR:
        return getxattr(r, reply, false);
    case FUSE_LISTXATTR:
        return getxattr(r, reply, true);
    case FUSE_REMOVEXATTR:
        return removexattr(r, reply);
    default:
        // ACCESS (default_permissions), locks, ioctl, poll, copy_file_range, tmpfile, statx:
        // the kernel falls back or does them itself.
        reply.fail(ENOSYS);
        return;
    }
}

void QuotaFs::init(Request& r, FuseReply& reply)
{
    fuse_init_in in{};
    // Older kernels send the short form; what is missing reads as zero.
    const std::size_t n = std::min(r.body.left(), sizeof in);
    std::memcpy(&in, r.body.bytes(n), n);
    if (n < 16 || in.major != FUSE_KERNEL_VERSION || in.minor < 31) {
        reply.fail(EPROTO);
        return;
    }
    m_minor = std::min<std::uint32_t>(in.minor, FUSE_KERNEL_MINOR_VERSION);
    fuse_init_out out{};
    out.major = FUSE_KERNEL_VERSION;
    out.minor = m_minor;
    out.max_readahead = in.max_readahead;
    out.flags = in.flags & kWanted;
    out.max_background = 64;
    out.congestion_threshold = 48;
    out.max_write = kMaxWrite;
    out.time_gran = 1;
    out.max_pages = kMaxWrite / 4096;
    reply.add(out);
}

void QuotaFs::statfs(FuseReply& reply)
{
    // What df shows in the sandbox (overlayfs answers with its upper layer's figures).
    fuse_statfs_out out{};
    const QuotaLimits& l = m_account.limits();
    out.st.bsize = kBlock;
    out.st.frsize = kBlock;
    out.st.blocks = std::uint64_t(l.bytes / kBlock);
    out.st.bfree = std::uint64_t(m_account.freeBytes() / kBlock);
    out.st.bavail = out.st.bfree;
    out.st.files = std::uint64_t(l.inodes);
    out.st.ffree = std::uint64_t(m_account.freeInodes());
    out.st.namelen = kNameMax;
    reply.add(out);
}

void QuotaFs::forget(Request& r)
{
    fuse_forget_in in{};
    if (r.body.take(in))
        m_nodes.forget(r.header.nodeid, in.nlookup);
}

void QuotaFs::batchForget(Request& r)
{
    fuse_batch_forget_in in{};
    if (!r.body.take(in))
        return;
    for (std::uint32_t i = 0; i < in.count; ++i) {
        fuse_forget_one one{};
        if (!r.body.take(one))
            return;
        m_nodes.forget(one.nodeid, one.nlookup);
    }
}

std::uint64_t QuotaFs::replyEntry(std::uint64_t parent, const char* name, int fd,
                                  const struct stat& st, bool created, FuseReply& reply)
{
    int err = 0;
    const std::uint64_t id = m_nodes.remember(parent, name, fd, st, created, err);
    if (id == 0) {
        reply.fail(err);
        return 0;
    }
    fuse_entry_out out{};
    out.nodeid = id;
    out.entry_valid = kCacheSeconds;
    out.attr_valid = kCacheSeconds;
    fillAttr(out.attr, st);
    reply.add(out);
    return id;
}

void QuotaFs::recount(Node* node, int fd, std::int64_t reserved)
{
    struct stat st;
    const std::int64_t now = ::fstat(fd, &st) == 0 ? std::int64_t(st.st_blocks) * 512 : node->bytes;
    m_account.addBytes(now - node->bytes - reserved);
    node->bytes = now;
}

std::uint64_t QuotaFs::finishCreate(Request& r, NodeTable::Ref& parent, const char* name, int fd,
                                    mode_t mode, FuseReply& reply, bool created)
{
    struct stat dir
    {
    };
    {
        std::lock_guard lock(inodeLock(parent->ino));
        recount(parent.get(), parent.fd()); // the directory may have grown a block
        ::fstat(parent.fd(), &dir);
    }
    if (created) {
        // Created as root of the namespace; the caller's ids now. A set-group-ID directory gave
        // the new inode its group already, as the kernel would for the caller.
        const uid_t uid = r.header.uid;
        const gid_t gid = (dir.st_mode & S_ISGID) ? gid_t(-1) : gid_t(r.header.gid);
        if ((uid != 0 || (gid != gid_t(-1) && gid != 0)) &&
            ::fchownat(fd, "", uid, gid, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) != 0) {
            // The inode exists and stays; the caller learns why its owner is wrong.
            const int err = errno;
            ::close(fd);
            reply.fail(err);
            return 0;
        }
        // chown clears set-user-ID and set-group-ID of files: the caller asked for them.
        if (S_ISREG(mode) && (mode & (S_ISUID | S_ISGID)))
            ::fchmodat(AT_FDCWD, procEntry(fd).c_str(), mode & 07777, 0);
    }
    struct stat st;
    if (::fstat(fd, &st) != 0) {
        const int err = errno;
        ::close(fd);
        reply.fail(err);
        return 0;
    }
    return replyEntry(parent->id, name, fd, st, created, reply);
}

} // namespace lizard::agent::quotafs
