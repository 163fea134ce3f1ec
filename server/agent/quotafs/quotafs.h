#pragma once
// The quota file system: a passthrough over one host directory (a sandbox's layer directory)
// that serves what overlayfs needs of an upper layer and bounds what it may hold (QuotaAccount).
// handle() takes one request as the kernel wrote it on /dev/fuse and fills the reply: a pure
// function of the request, the backing directory and the daemon's tables, so that it can be
// driven without a kernel.
//
// Nothing is resolved by path. Every inode is an O_PATH descriptor (NodeTable); a request's
// name is one component (no '/', not "." or "..") opened relative to its parent's descriptor
// with O_NOFOLLOW; an inode on another device (a mount point) is refused. Reopening an inode for
// I/O, its extended attributes, modes and times go through its own descriptor's entry in
// /proc/self/fd, which must be the working directory (QuotaFsDaemon sets it), as a low-level
// passthrough does.
//
// Permissions are the kernel's (the mount has default_permissions): the daemon runs as root of
// the sandbox's user namespace and creates files with the caller's uid and gid.

#include "agent/quotafs/fusereply.h"
#include "agent/quotafs/handletable.h"
#include "agent/quotafs/nodetable.h"
#include "agent/quotafs/quotaaccount.h"
#include "agent/quotafs/quotafsrequest.h"

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <linux/fuse.h>
#include <mutex>
#include <string>

namespace lizard::agent::quotafs {

// The largest write (and read) the kernel sends: 256 pages.
inline constexpr std::size_t kMaxWrite = 1 << 20;
// What a thread's request buffer must hold: the kernel refuses reads into less.
inline constexpr std::size_t kRequestBuffer = kMaxWrite + 4096;

struct QuotaFsOptions
{
    QuotaLimits limits;
    std::int64_t usedBytes = 0; // what the backing directory held at the start (a walk)
    std::int64_t usedInodes = 0;
    std::size_t maxFds = 4096; // O_PATH descriptors kept open at once (NodeTable)
};

class QuotaFs
{
public:
    // `rootFd`: the backing directory (O_PATH is enough); the QuotaFs takes it.
    QuotaFs(int rootFd, const QuotaFsOptions& options);

    // One request (`len` bytes); the reply goes into `reply` (reply.wanted() false: none).
    void handle(const char* request, std::size_t len, FuseReply& reply);

    const QuotaAccount& account() const { return m_account; }
    bool destroyed() const { return m_destroyed.load(); }
    std::size_t nodes() const { return m_nodes.size(); }
    std::size_t openDescriptors() const { return m_nodes.openDescriptors(); }

private:
    void init(Request& r, FuseReply& reply);
    void statfs(FuseReply& reply);
    void forget(Request& r);
    void batchForget(Request& r);
    // Names (quotafs_names.cpp)
    void lookup(Request& r, FuseReply& reply);
    void mknod(Request& r, FuseReply& reply);
    void mkdir(Request& r, FuseReply& reply);
    void symlink(Request& r, FuseReply& reply);
    void link(Request& r, FuseReply& reply);
    void unlink(Request& r, FuseReply& reply, bool dir);
    void rename(Request& r, FuseReply& reply, bool withFlags);
    void create(Request& r, FuseReply& reply);
    // Inodes and data (quotafs_data.cpp)
    void getattr(Request& r, FuseReply& reply);
    void setattr(Request& r, FuseReply& reply);
    void readlink(Request& r, FuseReply& reply);
    void open(Request& r, FuseReply& reply, bool dir);
    void read(Request& r, FuseReply& reply);
    void write(Request& r, FuseReply& reply);
    void release(Request& r, FuseReply& reply);
    void fsync(Request& r, FuseReply& reply);
    void fallocate(Request& r, FuseReply& reply);
    void lseek(Request& r, FuseReply& reply);
    void readdir(Request& r, FuseReply& reply);
    void setxattr(Request& r, FuseReply& reply);
    void getxattr(Request& r, FuseReply& reply, bool list);
    void removexattr(Request& r, FuseReply& reply);

    // After a new inode (mknod, mkdir, symlink, create) came into being as `name` in `parent`:
    // gives it the caller's owner, counts it and answers its entry. `fd`: its O_PATH descriptor.
    // Returns its node id, 0 when it failed (the reply says why).
    std::uint64_t finishCreate(Request& r, NodeTable::Ref& parent, const char* name, int fd,
                               mode_t mode, FuseReply& reply, bool created);
    // Answers an entry for `fd` (`st`), found as `name` in `parent`; takes `fd`. Returns its node
    // id, 0 when it failed (the reply says why).
    std::uint64_t replyEntry(std::uint64_t parent, const char* name, int fd, const struct stat& st,
                             bool created, FuseReply& reply);
    // Settles the account with what the file system now says node allocates.
    void recount(Node* node, int fd, std::int64_t reserved = 0);
    std::mutex& inodeLock(ino_t ino) { return m_inodeLocks[ino % m_inodeLocks.size()]; }

    QuotaAccount m_account;
    dev_t m_dev = 0;
    NodeTable m_nodes;
    HandleTable m_handles;
    // Serializes what changes an inode's allocation and recounts it (writes, truncates, xattrs).
    std::array<std::mutex, 64> m_inodeLocks;
    std::atomic<bool> m_destroyed{false};
    std::uint32_t m_minor = 0; // the negotiated protocol minor version
};

} // namespace lizard::agent::quotafs
