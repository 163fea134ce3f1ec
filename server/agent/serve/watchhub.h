#pragma once
// The fs.watch watches of one sandbox, owned by its PID 1 so they live as long as the
// sandbox does (and no longer). One thread reads every watch's inotify queue as soon as the
// kernel has something, so new subdirectories are watched promptly and the kernel's own
// queue does not overflow between two drains.
//
// Requests: {"op":"watch","path":P,"recursive":B} → {"ok":true,"watcherId":"w-…"};
// {"op":"watchEvents","watcherId":W} → {"ok":true,"events":[FsEvent…]};
// {"op":"unwatch","watcherId":W} → {"ok":true}. Unknown id: NOT_FOUND; more than
// kMaxWatchers at once: TOO_MANY_WATCHERS.

#include "agent/serve/framestream.h"
#include "agent/serve/fswatch.h"

#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

namespace lizard::agent {

class WatchHub
{
public:
    static constexpr std::size_t kMaxWatchers = 64;
    // How long the reader lets kernel events gather before it reads them (watchhub.cpp).
    static constexpr int kBatchMs = 10;

    WatchHub() = default;
    WatchHub(const WatchHub&) = delete;
    WatchHub& operator=(const WatchHub&) = delete;

    // Serves one of the three watch ops (the caller checked `op`).
    void serve(FrameStream& stream, const nlohmann::json& request);

    static bool isWatchOp(const std::string& op);

private:
    void add(FrameStream& stream, const nlohmann::json& request);
    void events(FrameStream& stream, const nlohmann::json& request);
    void remove(FrameStream& stream, const nlohmann::json& request);
    bool startReader(std::string& why); // under m_mutex
    void readLoop();

    std::mutex m_mutex;
    std::map<std::string, std::unique_ptr<FsWatch>> m_watches;
    int m_epoll = -1;
};

} // namespace lizard::agent
