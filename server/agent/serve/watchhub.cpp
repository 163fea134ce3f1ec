#include "agent/serve/watchhub.h"

#include "agent/serve/fileops.h"
#include "agent/serve/fswatch.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <sys/epoll.h>
#include <system_error>
#include <thread>
#include <unistd.h>

namespace lizard::agent {

namespace {

std::string newWatcherId()
{
    unsigned char bytes[8] = {};
    const int fd = ::open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        if (::read(fd, bytes, sizeof bytes) != ssize_t(sizeof bytes))
            std::memset(bytes, 0, sizeof bytes);
        ::close(fd);
    }
    static unsigned counter = 0; // under the hub's mutex: ids differ even without urandom
    bytes[0] ^= static_cast<unsigned char>(++counter);
    static const char hex[] = "0123456789abcdef";
    std::string id = "w-";
    for (unsigned char b : bytes) {
        id += hex[b >> 4];
        id += hex[b & 15];
    }
    return id;
}

std::optional<std::string> watcherId(FrameStream& stream, const nlohmann::json& request)
{
    const auto it = request.find("watcherId");
    if (it == request.end() || !it->is_string() || it->get<std::string>().empty()) {
        stream.writeError("INVALID_ARGUMENT", "watcherId must be a non-empty string");
        return std::nullopt;
    }
    return it->get<std::string>();
}

} // namespace

bool WatchHub::isWatchOp(const std::string& op)
{
    return op == "watch" || op == "watchEvents" || op == "unwatch";
}

void WatchHub::serve(FrameStream& stream, const nlohmann::json& request)
{
    const std::string op = request.value("op", std::string());
    if (op == "watch")
        add(stream, request);
    else if (op == "watchEvents")
        events(stream, request);
    else
        remove(stream, request);
}

// PID 1 owns the hub for its whole life, so the reader thread is never joined.
bool WatchHub::startReader(std::string& why)
{
    if (m_epoll >= 0)
        return true;
    m_epoll = ::epoll_create1(EPOLL_CLOEXEC);
    if (m_epoll < 0) {
        why = std::strerror(errno);
        return false;
    }
    try {
        std::thread([this] { readLoop(); }).detach();
    } catch (const std::system_error& e) {
        ::close(m_epoll);
        m_epoll = -1;
        why = e.what();
        return false;
    }
    return true;
}

void WatchHub::readLoop()
{
    epoll_event ready[16];
    for (;;) {
        const int n = ::epoll_wait(m_epoll, ready, 16, -1);
        if (n < 0 && errno != EINTR)
            return;
        // Let the kernel queue a batch before reading it. Read at once, a process writing files
        // in a loop wakes this thread for every write (thousands of times a second, each a
        // fraction of a millisecond), and on a loaded machine those wake-ups take the core the
        // desktop's UI thread waits for. A drain reads what the kernel holds first (events()),
        // and the kernel's queue holds 16,384 events by default: a short pause neither loses
        // nor delays anything a client sees.
        if (n > 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(kBatchMs));
        std::lock_guard lock(m_mutex);
        for (int i = 0; i < n; ++i) {
            // The watch may have been removed since epoll_wait returned: look it up.
            for (auto& [id, watch] : m_watches)
                if (watch->fd() == ready[i].data.fd)
                    watch->readKernelEvents();
        }
    }
}

void WatchHub::add(FrameStream& stream, const nlohmann::json& request)
{
    const auto path = requirePath(stream, request, "path");
    if (!path)
        return;
    const auto rec = request.find("recursive");
    if (rec != request.end() && !rec->is_boolean() && !rec->is_null())
        return void(stream.writeError("INVALID_ARGUMENT", "recursive must be a boolean"));
    const bool recursive = rec != request.end() && rec->is_boolean() && rec->get<bool>();
    std::lock_guard lock(m_mutex);
    if (m_watches.size() >= kMaxWatchers)
        return void(stream.writeError("TOO_MANY_WATCHERS",
                                      "this sandbox already has " + std::to_string(kMaxWatchers) +
                                          " watchers, the most it keeps at once; close one first"));
    std::string why;
    if (!startReader(why))
        return void(stream.writeError("RESOURCE_EXHAUSTED", "cannot watch: " + why));
    int err = 0;
    auto watch = FsWatch::open(*path, recursive, err);
    if (!watch) {
        if (err == ENOSPC || err == EMFILE)
            return void(stream.writeError("RESOURCE_EXHAUSTED",
                                          *path + ": no inotify watch left in the sandbox"));
        return void(writePathErrno(stream, err, *path));
    }
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = watch->fd();
    if (::epoll_ctl(m_epoll, EPOLL_CTL_ADD, watch->fd(), &ev) != 0)
        return void(writeErrno(stream, errno, *path));
    std::string id = newWatcherId();
    while (m_watches.count(id))
        id = newWatcherId();
    m_watches.emplace(id, std::move(watch));
    stream.writeJson({{"ok", true}, {"watcherId", id}});
}

void WatchHub::events(FrameStream& stream, const nlohmann::json& request)
{
    const auto id = watcherId(stream, request);
    if (!id)
        return;
    nlohmann::json events;
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_watches.find(*id);
        if (it == m_watches.end())
            return void(stream.writeError("NOT_FOUND", "no watcher " + *id + " in this sandbox"));
        // What the kernel holds right now belongs to this drain too.
        it->second->readKernelEvents();
        events = it->second->drain();
    }
    stream.writeJson({{"ok", true}, {"events", std::move(events)}});
}

void WatchHub::remove(FrameStream& stream, const nlohmann::json& request)
{
    const auto id = watcherId(stream, request);
    if (!id)
        return;
    std::lock_guard lock(m_mutex);
    const auto it = m_watches.find(*id);
    if (it == m_watches.end())
        return void(stream.writeError("NOT_FOUND", "no watcher " + *id + " in this sandbox"));
    ::epoll_ctl(m_epoll, EPOLL_CTL_DEL, it->second->fd(), nullptr);
    m_watches.erase(it);
    stream.writeJson({{"ok", true}});
}

} // namespace lizard::agent
