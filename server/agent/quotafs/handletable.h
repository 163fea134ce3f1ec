#pragma once
// The daemon's open files and directories: what the kernel calls a file handle (fh) is a number
// here, never a descriptor, so a stale or forged one finds nothing instead of another file.

#include "agent/quotafs/nodetable.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace lizard::agent::quotafs {

struct Handle
{
    Handle(int file, Node* of, bool directory) : fd(file), node(of), dir(directory) {}
    ~Handle();
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;

    const int fd;
    Node* const node; // kept alive by NodeTable::opened until closed()
    const bool dir;
    // A directory's entries read ahead (getdents64) and not yet given to the kernel.
    std::mutex mutex;
    std::vector<char> entries;
    std::size_t pos = 0, end = 0;
    std::int64_t offset = 0; // the offset the entry at `pos` continues from
};

class HandleTable
{
public:
    // Returns the new handle's number (never 0).
    std::uint64_t add(std::shared_ptr<Handle> handle);
    std::shared_ptr<Handle> get(std::uint64_t fh) const;
    // Removes it; the descriptor closes when the last user lets go.
    std::shared_ptr<Handle> take(std::uint64_t fh);
    std::size_t size() const;

private:
    mutable std::mutex m_mutex;
    std::unordered_map<std::uint64_t, std::shared_ptr<Handle>> m_handles;
    std::uint64_t m_next = 1;
};

} // namespace lizard::agent::quotafs
