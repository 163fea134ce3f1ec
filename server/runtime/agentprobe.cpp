#include "runtime/agentprobe.h"

#include "agent/serve/frame.h"
#include "runtime/agentconnection.h"
#include "runtime/agentgate.h"
#include "runtime/agentlimits.h"

#include <boost/asio/post.hpp>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

namespace lizard::runtime {

namespace asio = boost::asio;

namespace {

using ProbeClock = std::chrono::steady_clock;
using ProbeWaiter = std::pair<asio::any_io_executor, std::function<void(bool)>>;

struct ProbeEntry
{
    bool running = false;
    ProbeClock::time_point lastAlive{};
    std::vector<ProbeWaiter> waiters;
};

struct Probes
{
    std::mutex mutex;
    std::map<std::string, ProbeEntry> bySocket;
};

Probes& probes()
{
    static auto* p = new Probes; // never destroyed: connections may finish during exit
    return *p;
}

void finishProbe(const std::string& path, bool alive)
{
    Probes& all = probes();
    std::vector<ProbeWaiter> waiters;
    {
        std::lock_guard lock(all.mutex);
        auto it = all.bySocket.find(path);
        if (it == all.bySocket.end())
            return;
        it->second.running = false;
        waiters.swap(it->second.waiters);
        if (alive)
            it->second.lastAlive = ProbeClock::now();
        else
            all.bySocket.erase(it);
    }
    for (auto& [ex, done] : waiters)
        asio::post(ex, [done = std::move(done), alive] { done(alive); });
}

} // namespace

void probeAgent(asio::any_io_executor ex, const std::string& socketPath,
                std::function<void(bool)> done)
{
    if (agentFrozen(socketPath))
        return asio::post(ex, [done = std::move(done)] { done(true); });
    Probes& all = probes();
    const auto now = ProbeClock::now();
    {
        std::lock_guard lock(all.mutex);
        // Forget sandboxes not asked about for a while (they may be gone).
        for (auto it = all.bySocket.begin(); it != all.bySocket.end();) {
            if (!it->second.running && now - it->second.lastAlive > std::chrono::minutes(1))
                it = all.bySocket.erase(it);
            else
                ++it;
        }
        ProbeEntry& p = all.bySocket[socketPath];
        if (!p.running && now - p.lastAlive < agentDeadlines().reply() / 2)
            return asio::post(ex, [done = std::move(done)] { done(true); });
        p.waiters.emplace_back(ex, std::move(done));
        if (p.running)
            return;
        p.running = true;
    }
    // Strict deadlines and no call slot: a ping must get through when the calls are at the cap.
    auto conn = std::make_shared<AgentConnection>(ex, socketPath);
    conn->connect([conn, socketPath](const boost::system::error_code& ec) {
        if (ec) {
            conn->close();
            return finishProbe(socketPath, false);
        }
        conn->writeFrame(agent::kFrameJson, R"({"op":"ping"})");
        conn->readFrame([conn, socketPath](const boost::system::error_code& ec2, char type,
                                           std::string_view payload) {
            conn->close();
            bool alive = false;
            if (!ec2 && type == agent::kFrameJson) {
                const auto j = nlohmann::json::parse(payload, nullptr, false);
                alive = j.is_object() && j.value("ok", false);
            }
            finishProbe(socketPath, alive);
        });
    });
}

} // namespace lizard::runtime
