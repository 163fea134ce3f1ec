#pragma once
// The daemon's inodes: what the kernel knows by a node id, each held as an O_PATH descriptor of
// the backing file (opened with O_NOFOLLOW, relative to its parent's), never found again by a
// path. The table is bounded: at most `maxNodes` inodes (the layer's inode bound and what the
// walk found), and at most `maxFds` descriptors open at once. Past that, the descriptor of an
// inode not in use is closed and reopened when needed from its parent's descriptor by the one
// name it was last known by (checked against its inode number: ESTALE otherwise). An inode that
// has no such name (its last known name was removed: a deleted file still open, a hard link's
// other name) keeps its descriptor.

#include "agent/quotafs/quotaaccount.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <sys/stat.h>
#include <unordered_map>

namespace lizard::agent::quotafs {

inline constexpr std::uint64_t kRootId = 1; // FUSE_ROOT_ID

struct Node
{
    std::uint64_t id = 0;
    ino_t ino = 0;
    mode_t type = 0; // S_IFMT bits
    int fd = -1;     // -1 while closed (reopened from parent + name)
    std::uint64_t lookups = 0;
    std::uint32_t busy = 0;   // requests using fd right now
    std::uint32_t opens = 0;  // open file handles
    std::uint64_t parent = 0; // with `name`: how to reopen it; 0 when unknown
    std::string name;
    bool linked = true;     // false once its last link is gone: freed when unreferenced
    bool forgotten = false; // the kernel forgot it while in use: dropped when unused
    // Allocated bytes counted in the account for this inode. Written under the daemon's lock for
    // the inode (QuotaFs::inodeLock), read when the node goes.
    std::int64_t bytes = 0;
    Node* lruPrev = nullptr; // among the open, evictable descriptors
    Node* lruNext = nullptr;
    bool inLru = false;
};

class NodeTable
{
public:
    NodeTable(int rootFd, const struct stat& root, std::size_t maxNodes, std::size_t maxFds,
              QuotaAccount& account);
    ~NodeTable();
    NodeTable(const NodeTable&) = delete;
    NodeTable& operator=(const NodeTable&) = delete;

    // A node in use: its descriptor stays open until the Ref goes.
    class Ref
    {
    public:
        Ref() = default;
        Ref(NodeTable* table, Node* node) : m_table(table), m_node(node) {}
        Ref(Ref&& o) noexcept : m_table(o.m_table), m_node(o.m_node) { o.m_node = nullptr; }
        Ref& operator=(Ref&& o) noexcept;
        ~Ref() { reset(); }
        void reset();
        explicit operator bool() const { return m_node != nullptr; }
        Node* operator->() const { return m_node; }
        Node* get() const { return m_node; }
        int fd() const { return m_node->fd; }

    private:
        NodeTable* m_table = nullptr;
        Node* m_node = nullptr;
    };

    // The node `id`, its descriptor open (reopened if it was closed). Empty with `err`: ESTALE
    // for an id the table does not have or an inode that changed, or the reopen's errno.
    Ref acquire(std::uint64_t id, int& err);
    // A lookup (or a create) found `st` as `name` in `parent`; `fd` is its new O_PATH descriptor,
    // which the table takes (closes it when the node has one). Counts one lookup. Returns the
    // node id; 0 with `err` ENFILE when the table is full. `created`: a new inode, whose blocks
    // the account gets now (a found one was counted by the walk or at its creation).
    std::uint64_t remember(std::uint64_t parent, const std::string& name, int fd,
                           const struct stat& st, bool created, int& err);
    void forget(std::uint64_t id, std::uint64_t count);

    // `name` in `parent` names inode `ino` and is about to go (unlink, rmdir, replaced by a
    // rename): if the table holds that inode by this name, its descriptor is opened now and
    // kept, since the name will no longer reopen it.
    void beforeRemoval(ino_t ino, std::uint64_t parent, const std::string& name);
    // The name went: `ino` has `linksLeft` links. At 0 the inode is freed once the kernel and
    // every handle let go of it; an inode the table does not hold is freed now (`bytes`).
    void removed(ino_t ino, nlink_t linksLeft, std::int64_t bytes);
    // `ino` is now `newName` in `newParent` (a rename; a link gives another name).
    void renamed(ino_t ino, std::uint64_t newParent, const std::string& newName);

    void opened(Node* node);
    void closed(Node* node);

    std::size_t size() const;
    std::size_t openDescriptors() const;

private:
    friend class Ref;
    void release(Node* node);
    // Opens node's descriptor (and its closed ancestors'); call with m_mutex held.
    int reopen(Node* node);
    void makeRoom(); // closes the least recently used descriptors past the budget
    void lruTouch(Node* node);
    void lruRemove(Node* node);
    bool evictable(const Node* node) const;
    void closeFd(Node* node);
    void drop(Node* node); // erases it; frees its inode if no link is left

    QuotaAccount& m_account;
    const std::size_t m_maxNodes;
    const std::size_t m_maxFds;
    mutable std::mutex m_mutex;
    std::unordered_map<std::uint64_t, std::unique_ptr<Node>> m_byId;
    std::unordered_map<ino_t, Node*> m_byIno;
    std::uint64_t m_nextId = kRootId + 1;
    std::size_t m_openFds = 0;
    Node* m_lruHead = nullptr; // most recently used
    Node* m_lruTail = nullptr;
};

} // namespace lizard::agent::quotafs
