#include "agent/serve/fswatch.h"

#include "agent/serve/filepaths.h"
#include "agent/serve/pathguard.h"

#include <cerrno>
#include <dirent.h>
#include <fcntl.h>
#include <string_view>
#include <sys/inotify.h>
#include <unistd.h>
#include <vector>

namespace lizard::agent {

namespace {

constexpr std::uint32_t kMask = IN_CREATE | IN_MODIFY | IN_ATTRIB | IN_DELETE | IN_MOVED_FROM |
                                IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR |
                                IN_EXCL_UNLINK;

bool isUnder(const std::string& path, const std::string& dir)
{
    return path == dir || (path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 &&
                           (dir == "/" || path[dir.size()] == '/'));
}

// inotify_add_watch on the directory `path` names, opened without passing a /proc magic
// link: the watch goes on that very descriptor (through /proc/self/fd), so a directory
// swapped for a link between the check and the watch cannot lead out of the sandbox.
int watchDirectory(int inotifyFd, const std::string& path, int& err)
{
    const int dirFd = openNoMagic(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    if (dirFd < 0) {
        err = errno;
        return -1;
    }
    const std::string viaFd = "/proc/self/fd/" + std::to_string(dirFd);
    const int wd = ::inotify_add_watch(inotifyFd, viaFd.c_str(), kMask);
    err = errno;
    ::close(dirFd);
    return wd;
}

} // namespace

FsWatch::FsWatch(int fd, std::string root, bool recursive)
    : m_fd(fd), m_root(std::move(root)), m_recursive(recursive)
{
}

FsWatch::~FsWatch()
{
    ::close(m_fd);
}

std::unique_ptr<FsWatch> FsWatch::open(const std::string& root, bool recursive, int& err)
{
    // The root itself may be a symlink to a directory (its events keep the given path).
    const int rootFd = openNoMagic(root, O_RDONLY | O_DIRECTORY);
    if (rootFd < 0) {
        err = errno;
        return nullptr;
    }
    const int fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (fd < 0) {
        err = errno;
        ::close(rootFd);
        return nullptr;
    }
    std::unique_ptr<FsWatch> w(new FsWatch(fd, root, recursive));
    const std::string viaFd = "/proc/self/fd/" + std::to_string(rootFd);
    w->m_rootWd = ::inotify_add_watch(fd, viaFd.c_str(), kMask);
    err = errno;
    ::close(rootFd);
    if (w->m_rootWd < 0)
        return nullptr;
    w->m_dirs[w->m_rootWd] = root;
    if (recursive)
        w->addTree(root, false);
    w->m_lost = false; // what happened before the caller had the watch is not lost to it
    return w;
}

bool FsWatch::addDir(const std::string& dir)
{
    int err = 0;
    const int wd = watchDirectory(m_fd, dir, err);
    if (wd < 0) {
        // Gone again already (its removal is reported), or no watch left (ENOSPC): then
        // changes below it would go unseen, which the client must learn.
        if (err != ENOENT && err != ENOTDIR)
            m_lost = true;
        return false;
    }
    m_dirs[wd] = dir;
    return true;
}

// Watches every directory below `dir` (itself watched already). With `reportContents`, what
// it holds is reported as created: a new directory can fill before its watch exists
// (mkdir -p a/b && touch a/b/c), and those entries would otherwise never show.
void FsWatch::addTree(const std::string& dir, bool reportContents)
{
    const int fd = openNoMagic(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    DIR* d = fd >= 0 ? ::fdopendir(fd) : nullptr;
    if (!d) {
        if (fd >= 0)
            ::close(fd);
        return;
    }
    std::vector<std::string> subdirs;
    while (dirent* e = ::readdir(d)) {
        const std::string name = e->d_name;
        if (name == "." || name == "..")
            continue;
        const std::string path = joinPath(dir, name);
        if (reportContents)
            push("create", path);
        if (e->d_type == DT_DIR)
            subdirs.push_back(path);
    }
    ::closedir(d);
    for (const std::string& sub : subdirs)
        if (addDir(sub))
            addTree(sub, reportContents);
}

void FsWatch::dropTree(const std::string& dir)
{
    for (auto it = m_dirs.begin(); it != m_dirs.end();) {
        if (it->first != m_rootWd && isUnder(it->second, dir)) {
            ::inotify_rm_watch(m_fd, it->first);
            it = m_dirs.erase(it);
        } else {
            ++it;
        }
    }
}

void FsWatch::push(const char* type, const std::string& path)
{
    // A file written in many chunks reports one change per write(2): one is enough.
    if (!m_queue.empty() && std::string_view(m_queue.back().type) == type &&
        m_queue.back().path == path)
        return;
    if (m_queue.size() >= kMaxQueued) {
        ++m_dropped;
        return;
    }
    m_queue.push_back(Event{type, path});
}

void FsWatch::handle(const inotify_event& e)
{
    if (e.mask & IN_Q_OVERFLOW) {
        m_lost = true;
        return;
    }
    const auto dirIt = m_dirs.find(e.wd);
    if (dirIt == m_dirs.end())
        return; // a watch dropped a moment ago
    if (e.mask & IN_IGNORED) {
        m_dirs.erase(dirIt);
        return;
    }
    const std::string dir = dirIt->second;
    if (e.mask & (IN_DELETE_SELF | IN_MOVE_SELF)) {
        // A subdirectory's removal or move is reported by its parent; the root's only here.
        if (e.wd == m_rootWd)
            push(e.mask & IN_DELETE_SELF ? "remove" : "rename", m_root);
        return;
    }
    if (e.len == 0)
        return;
    const std::string path = joinPath(dir, e.name);
    const bool isDir = e.mask & IN_ISDIR;
    if (e.mask & (IN_CREATE | IN_MOVED_TO)) {
        push("create", path);
        if (isDir && m_recursive && addDir(path))
            addTree(path, e.mask & IN_CREATE);
    } else if (e.mask & IN_MODIFY) {
        push("write", path);
    } else if (e.mask & IN_ATTRIB) {
        push("chmod", path);
    } else if (e.mask & IN_DELETE) {
        push("remove", path);
    } else if (e.mask & IN_MOVED_FROM) {
        push("rename", path);
        // Its watches would report under the old path (or from outside the tree).
        if (isDir && m_recursive)
            dropTree(path);
    }
}

void FsWatch::readKernelEvents()
{
    alignas(inotify_event) char buf[64 * 1024];
    for (;;) {
        const ssize_t n = ::read(m_fd, buf, sizeof buf);
        if (n <= 0)
            return; // EAGAIN: nothing more queued
        for (ssize_t off = 0; off < n;) {
            const auto* e = reinterpret_cast<const inotify_event*>(buf + off);
            handle(*e);
            off += ssize_t(sizeof(inotify_event) + e->len);
        }
    }
}

nlohmann::json FsWatch::drain()
{
    nlohmann::json out = nlohmann::json::array();
    for (const Event& e : m_queue)
        out.push_back({{"type", e.type}, {"name", baseName(e.path)}, {"path", e.path}});
    if (m_dropped > 0 || m_lost)
        out.push_back({{"type", "overflow"},
                       {"name", baseName(m_root)},
                       {"path", m_root},
                       {"dropped", m_dropped}});
    m_queue.clear();
    m_dropped = 0;
    m_lost = false;
    return out;
}

} // namespace lizard::agent
