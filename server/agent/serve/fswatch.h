#pragma once
// One watch of fs.watch: an inotify instance over a directory (and, when recursive, every
// directory below it, including those created later), turned into the SDK's FsEvent records
// {type: create|write|remove|rename|chmod, name, path} in a bounded queue. The types follow
// fsnotify: a move reports `rename` for the old path and `create` for the new one. When
// events are lost (the queue is full, the kernel's queue overflowed, a new subdirectory
// could not be watched) the next drain ends with one marker
// {type: "overflow", name, path: <watched directory>, dropped: N}: the client rescans.
// Not thread-safe: WatchHub serialises every call.

#include <cstdint>
#include <deque>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>

struct inotify_event;

namespace lizard::agent {

class FsWatch
{
public:
    static constexpr std::size_t kMaxQueued = 10000;

    // Watches `root` (an absolute path in the sandbox); nullptr with `err` (an errno) when
    // it is missing, not a directory, reached through a /proc magic link or not watchable.
    static std::unique_ptr<FsWatch> open(const std::string& root, bool recursive, int& err);
    ~FsWatch();
    FsWatch(const FsWatch&) = delete;
    FsWatch& operator=(const FsWatch&) = delete;

    int fd() const { return m_fd; }
    const std::string& root() const { return m_root; }
    // Reads what the kernel has queued (never blocks) and translates it.
    void readKernelEvents();
    // Everything queued since the last drain (a JSON array), the overflow marker last.
    nlohmann::json drain();

private:
    FsWatch(int fd, std::string root, bool recursive);
    bool addDir(const std::string& dir);
    void addTree(const std::string& dir, bool reportContents);
    void dropTree(const std::string& dir);
    void push(const char* type, const std::string& path);
    void handle(const inotify_event& e);

    struct Event
    {
        const char* type;
        std::string path;
    };
    int m_fd;
    std::string m_root;
    bool m_recursive;
    int m_rootWd = -1;
    std::unordered_map<int, std::string> m_dirs; // watch descriptor → directory
    std::deque<Event> m_queue;
    std::uint64_t m_dropped = 0;
    bool m_lost = false;
};

} // namespace lizard::agent
