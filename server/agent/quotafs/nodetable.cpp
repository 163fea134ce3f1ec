#include "agent/quotafs/nodetable.h"

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>
#include <vector>

namespace lizard::agent::quotafs {

NodeTable::Ref& NodeTable::Ref::operator=(Ref&& o) noexcept
{
    if (this != &o) {
        reset();
        m_table = o.m_table;
        m_node = o.m_node;
        o.m_node = nullptr;
    }
    return *this;
}

void NodeTable::Ref::reset()
{
    if (m_node)
        m_table->release(m_node);
    m_node = nullptr;
}

NodeTable::NodeTable(int rootFd, const struct stat& root, std::size_t maxNodes, std::size_t maxFds,
                     QuotaAccount& account)
    : m_account(account), m_maxNodes(maxNodes), m_maxFds(maxFds < 16 ? 16 : maxFds)
{
    auto node = std::make_unique<Node>();
    node->id = kRootId;
    node->ino = root.st_ino;
    node->type = root.st_mode & S_IFMT;
    node->fd = rootFd;
    node->lookups = 1; // the kernel never forgets the root
    m_byIno[node->ino] = node.get();
    m_byId[kRootId] = std::move(node);
    m_openFds = 1;
}

NodeTable::~NodeTable()
{
    for (auto& [id, node] : m_byId) {
        if (node->fd >= 0)
            ::close(node->fd);
    }
}

bool NodeTable::evictable(const Node* node) const
{
    // Only what a name can reopen, and never the root (it has no parent to be reopened from).
    return node->id != kRootId && node->parent != 0 && node->linked && node->busy == 0;
}

void NodeTable::lruRemove(Node* node)
{
    if (!node->inLru)
        return;
    (node->lruPrev ? node->lruPrev->lruNext : m_lruHead) = node->lruNext;
    (node->lruNext ? node->lruNext->lruPrev : m_lruTail) = node->lruPrev;
    node->lruPrev = node->lruNext = nullptr;
    node->inLru = false;
}

void NodeTable::lruTouch(Node* node)
{
    lruRemove(node);
    if (node->fd < 0 || node->id == kRootId)
        return;
    node->lruNext = m_lruHead;
    if (m_lruHead)
        m_lruHead->lruPrev = node;
    m_lruHead = node;
    if (!m_lruTail)
        m_lruTail = node;
    node->inLru = true;
}

void NodeTable::closeFd(Node* node)
{
    if (node->fd < 0)
        return;
    ::close(node->fd);
    node->fd = -1;
    --m_openFds;
    lruRemove(node);
}

void NodeTable::makeRoom()
{
    Node* n = m_lruTail;
    while (m_openFds >= m_maxFds && n) {
        Node* prev = n->lruPrev;
        if (evictable(n))
            closeFd(n);
        n = prev;
    }
}

int NodeTable::reopen(Node* node)
{
    // The closed ancestors first: walk up to one that is open, then open down again.
    std::vector<Node*> chain;
    for (Node* n = node; n->fd < 0;) {
        if (n->parent == 0 || chain.size() > 4096)
            return ESTALE;
        chain.push_back(n);
        auto it = m_byId.find(n->parent);
        if (it == m_byId.end())
            return ESTALE;
        n = it->second.get();
    }
    for (Node* n : chain)
        ++n->busy; // not evicted while the chain opens
    int err = 0;
    for (auto it = chain.rbegin(); it != chain.rend() && err == 0; ++it) {
        Node* n = *it;
        Node* parent = m_byId.at(n->parent).get();
        makeRoom();
        int fd = ::openat(parent->fd, n->name.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC);
        struct stat st;
        if (fd < 0) {
            err = errno == ENOENT ? ESTALE : errno;
        } else if (::fstat(fd, &st) != 0 || st.st_ino != n->ino ||
                   (st.st_mode & S_IFMT) != n->type) {
            ::close(fd);
            err = ESTALE; // the name now means another inode
        } else {
            n->fd = fd;
            ++m_openFds;
            lruTouch(n);
        }
    }
    for (Node* n : chain)
        --n->busy;
    return err;
}

NodeTable::Ref NodeTable::acquire(std::uint64_t id, int& err)
{
    std::lock_guard lock(m_mutex);
    auto it = m_byId.find(id);
    if (it == m_byId.end() || it->second->forgotten) {
        err = ESTALE;
        return {};
    }
    Node* node = it->second.get();
    if (node->fd < 0) {
        if ((err = reopen(node)) != 0)
            return {};
    }
    ++node->busy;
    lruTouch(node);
    return Ref(this, node);
}

void NodeTable::release(Node* node)
{
    std::lock_guard lock(m_mutex);
    --node->busy;
    if (node->forgotten && node->busy == 0 && node->opens == 0)
        drop(node);
}

std::uint64_t NodeTable::remember(std::uint64_t parent, const std::string& name, int fd,
                                  const struct stat& st, bool created, int& err)
{
    std::lock_guard lock(m_mutex);
    if (auto it = m_byIno.find(st.st_ino); it != m_byIno.end() && !it->second->forgotten) {
        Node* node = it->second;
        ++node->lookups;
        if (node->fd < 0) {
            node->fd = fd;
            ++m_openFds;
        } else {
            ::close(fd);
        }
        if (node->parent == 0 && node->id != kRootId) { // a name to reopen it by again
            node->parent = parent;
            node->name = name;
        }
        lruTouch(node);
        return node->id;
    }
    if (m_byId.size() >= m_maxNodes) {
        ::close(fd);
        err = ENFILE;
        return 0;
    }
    makeRoom();
    auto node = std::make_unique<Node>();
    node->id = m_nextId++;
    node->ino = st.st_ino;
    node->type = st.st_mode & S_IFMT;
    node->fd = fd;
    node->lookups = 1;
    node->parent = parent;
    node->name = name;
    node->bytes = std::int64_t(st.st_blocks) * 512;
    if (created)
        m_account.addBytes(node->bytes);
    Node* raw = node.get();
    ++m_openFds;
    // A forgotten node of the same inode still in use keeps its own entry by id only.
    m_byIno[raw->ino] = raw;
    m_byId[raw->id] = std::move(node);
    lruTouch(raw);
    return raw->id;
}

void NodeTable::forget(std::uint64_t id, std::uint64_t count)
{
    std::lock_guard lock(m_mutex);
    auto it = m_byId.find(id);
    if (it == m_byId.end() || id == kRootId)
        return;
    Node* node = it->second.get();
    node->lookups = count >= node->lookups ? 0 : node->lookups - count;
    if (node->lookups > 0)
        return;
    node->forgotten = true;
    if (node->busy == 0 && node->opens == 0)
        drop(node);
}

void NodeTable::drop(Node* node)
{
    if (!node->linked) {
        m_account.addBytes(-node->bytes);
        m_account.freeInodes(1);
    }
    closeFd(node);
    if (auto it = m_byIno.find(node->ino); it != m_byIno.end() && it->second == node)
        m_byIno.erase(it);
    m_byId.erase(node->id); // destroys it
}

void NodeTable::beforeRemoval(ino_t ino, std::uint64_t parent, const std::string& name)
{
    std::lock_guard lock(m_mutex);
    auto it = m_byIno.find(ino);
    if (it == m_byIno.end())
        return;
    Node* node = it->second;
    if (node->parent != parent || node->name != name)
        return;
    if (node->fd < 0 && reopen(node) != 0)
        return; // gone already: nothing can reach it by this name either
    node->parent = 0;
    node->name.clear();
    lruRemove(node); // kept open from now on
}

void NodeTable::removed(ino_t ino, nlink_t linksLeft, std::int64_t bytes)
{
    std::lock_guard lock(m_mutex);
    auto it = m_byIno.find(ino);
    if (it == m_byIno.end()) {
        if (linksLeft == 0) {
            m_account.addBytes(-bytes);
            m_account.freeInodes(1);
        }
        return;
    }
    Node* node = it->second;
    if (linksLeft == 0 && node->linked) {
        node->linked = false;
        lruRemove(node);
    }
}

void NodeTable::renamed(ino_t ino, std::uint64_t newParent, const std::string& newName)
{
    std::lock_guard lock(m_mutex);
    auto it = m_byIno.find(ino);
    if (it == m_byIno.end() || it->second->id == kRootId)
        return;
    Node* node = it->second;
    node->parent = newParent;
    node->name = newName;
    lruTouch(node);
}

void NodeTable::opened(Node* node)
{
    std::lock_guard lock(m_mutex);
    ++node->opens;
}

void NodeTable::closed(Node* node)
{
    std::lock_guard lock(m_mutex);
    if (node->opens > 0)
        --node->opens;
    if (node->forgotten && node->busy == 0 && node->opens == 0)
        drop(node);
}

std::size_t NodeTable::size() const
{
    std::lock_guard lock(m_mutex);
    return m_byId.size();
}

std::size_t NodeTable::openDescriptors() const
{
    std::lock_guard lock(m_mutex);
    return m_openFds;
}

} // namespace lizard::agent::quotafs
