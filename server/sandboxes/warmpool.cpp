#include "sandboxes/warmpool.h"

#include "common/crypto.h"
#include "common/log.h"
#include "common/timeutil.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace lizard::sandboxes {

namespace {

// A burst of creates takes what is there; the refill waits until the burst is over, so that it
// never competes with the claimed sandboxes' first commands for the CPU.
constexpr int64_t kQuietAfterTakeMs = 1000;
// A pool whose copy could not start tries again this much later (a missing package stays
// missing; a full disk may not).
constexpr int64_t kRetryAfterFailureMs = 30000;

int64_t availableMemoryMb()
{
    std::ifstream in("/proc/meminfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("MemAvailable:", 0) == 0) {
            std::istringstream fields(line.substr(13));
            int64_t kib = 0;
            fields >> kib;
            return kib / 1024;
        }
    }
    return -1; // unknown: not a reason to hold back
}

} // namespace

WarmPool::WarmPool(runtime::Runtime& runtime, PoolSettings settings, std::function<bool()> busy,
                   Prepare prepare)
    : m_runtime(runtime), m_settings(settings), m_busy(std::move(busy)),
      m_prepare(std::move(prepare))
{
}

WarmPool::~WarmPool()
{
    stop();
}

void WarmPool::configure(const std::string& key, const WarmShape& shape, int target, bool paused)
{
    std::vector<Copy> surplus;
    {
        std::lock_guard lock(m_mutex);
        Pool& pool = m_pools[key];
        if (!(pool.shape == shape)) {
            for (auto& c : pool.idle)
                surplus.push_back(c);
            pool.idle.clear();
            pool.shape = shape;
        }
        pool.target = std::max(0, target);
        pool.paused = paused;
        pool.removed = false;
        pool.error.clear();
        pool.retryAtMs = 0;
        const size_t keep = paused ? 0 : size_t(pool.target);
        while (pool.idle.size() > keep) {
            surplus.push_back(pool.idle.back());
            pool.idle.pop_back();
        }
        m_toEnd.insert(m_toEnd.end(), surplus.begin(), surplus.end());
    }
    m_wake.notify_all();
}

void WarmPool::remove(const std::string& key)
{
    std::vector<Copy> ending;
    {
        std::unique_lock lock(m_mutex);
        if (auto it = m_pools.find(key); it != m_pools.end())
            it->second.removed = true;
        m_wake.wait(lock, [&] {
            const auto it = m_pools.find(key);
            return it == m_pools.end() || !it->second.starting;
        });
        const auto it = m_pools.find(key);
        if (it == m_pools.end())
            return;
        ending.assign(it->second.idle.begin(), it->second.idle.end());
        m_pools.erase(it);
    }
    endCopies(std::move(ending));
}

std::optional<WarmCopy> WarmPool::take(const std::string& key, const WarmShape& shape)
{
    std::lock_guard lock(m_mutex);
    auto it = m_pools.find(key);
    if (it == m_pools.end() || it->second.idle.empty() || !(it->second.shape == shape))
        return std::nullopt;
    Copy copy = it->second.idle.front(); // the oldest: the others' leases are newer
    it->second.idle.pop_front();
    m_lastTakeMs = nowMs();
    m_wake.notify_all();
    return WarmCopy{copy.handle, copy.prepared};
}

PoolState WarmPool::state(const std::string& key) const
{
    std::lock_guard lock(m_mutex);
    const auto it = m_pools.find(key);
    if (it == m_pools.end())
        return {};
    return {it->second.target, int(it->second.idle.size()), it->second.paused, it->second.error};
}

std::map<std::string, PoolState> WarmPool::states() const
{
    std::lock_guard lock(m_mutex);
    std::map<std::string, PoolState> out;
    for (const auto& [key, p] : m_pools)
        out[key] = {p.target, int(p.idle.size()), p.paused, p.error};
    return out;
}

void WarmPool::start()
{
    std::lock_guard lock(m_mutex);
    if (!m_thread.joinable() && !m_stop)
        m_thread = std::thread([this] { run(); });
}

void WarmPool::stop()
{
    std::vector<Copy> ending;
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
    {
        std::lock_guard lock(m_mutex);
        for (auto& [key, pool] : m_pools) {
            ending.insert(ending.end(), pool.idle.begin(), pool.idle.end());
            pool.idle.clear();
        }
        ending.insert(ending.end(), m_toEnd.begin(), m_toEnd.end());
        m_toEnd.clear();
    }
    endCopies(std::move(ending));
}

int WarmPool::idleTotal() const
{
    int n = 0;
    for (const auto& [key, p] : m_pools)
        n += int(p.idle.size()) + (p.starting ? 1 : 0);
    return n;
}

WarmPool::Pool* WarmPool::nextToFill(std::string& key)
{
    const int64_t now = nowMs();
    Pool* best = nullptr;
    int bestDeficit = 0;
    for (auto& [k, p] : m_pools) {
        const int deficit = p.target - int(p.idle.size());
        if (p.paused || p.removed || p.starting || p.retryAtMs > now || deficit <= bestDeficit)
            continue;
        best = &p;
        bestDeficit = deficit;
        key = k;
    }
    return best;
}

void WarmPool::run()
{
    std::unique_lock lock(m_mutex);
    while (!m_stop) {
        if (!m_toEnd.empty()) {
            std::vector<Copy> ending;
            ending.swap(m_toEnd);
            lock.unlock();
            endCopies(std::move(ending));
            lock.lock();
            continue;
        }
        const int64_t now = nowMs();
        const int64_t leaseEvery = std::clamp<int64_t>(m_settings.leaseGraceMs / 4, 1000, 30000);
        if (m_settings.leaseGraceMs > 0 && now - m_leasesRenewedAtMs >= leaseEvery) {
            lock.unlock();
            renewLeases();
            lock.lock();
            m_leasesRenewedAtMs = now;
            continue;
        }
        int64_t availableMb = 0;
        if (memoryLow(availableMb)) {
            // Idle copies are the first thing to give back: the newest goes first, one per round.
            const std::string why =
                "no warm copies while less than " + std::to_string(m_settings.minFreeMb) +
                " MiB of memory is available (now " + std::to_string(availableMb) +
                " MiB; lizard-local --pool-min-free-mb)";
            Pool* fullest = nullptr;
            for (auto& [k, p] : m_pools) {
                p.error = p.target > 0 ? why : std::string();
                if (!p.idle.empty() && (!fullest || p.idle.size() > fullest->idle.size()))
                    fullest = &p;
            }
            if (fullest) {
                m_toEnd.push_back(fullest->idle.back());
                fullest->idle.pop_back();
                continue;
            }
            m_wake.wait_for(lock, std::chrono::seconds(1));
            continue;
        }
        std::string key;
        Pool* pool = nextToFill(key);
        const bool quiet = now - m_lastTakeMs >= kQuietAfterTakeMs;
        if (pool && idleTotal() >= m_settings.maxCopies) {
            pool->error = "the warm pools hold their most copies together (" +
                          std::to_string(m_settings.maxCopies) + ", lizard-local --pool-max)";
            pool = nullptr;
        }
        if (!pool || !quiet) {
            m_wake.wait_for(lock, std::chrono::milliseconds(pool ? 100 : 1000));
            continue;
        }
        lock.unlock();
        const bool busy = m_busy && m_busy();
        lock.lock();
        if (busy) {
            m_wake.wait_for(lock, std::chrono::milliseconds(50));
            continue;
        }
        pool->starting = true;
        const WarmShape shape = pool->shape;
        lock.unlock();
        fillOne(key, shape);
        lock.lock();
    }
}

void WarmPool::fillOne(const std::string& key, WarmShape shape)
{
    runtime::SandboxSpec spec;
    spec.id = "sb_" + randomLowerAlnum(16);
    spec.templateName = shape.templateName;
    spec.limits = shape.limits;
    spec.internetAccess = shape.internetAccess;
    spec.filesFrom = shape.filesFrom;
    spec.diskGb = shape.diskGb;
    spec.shmMb = shape.shmMb;
    spec.orphanGraceMs = m_settings.leaseGraceMs;
    auto started = m_runtime.start(spec);
    const bool prepared = started && m_prepare && m_prepare(*started, shape);
    std::vector<Copy> ending;
    {
        std::lock_guard lock(m_mutex);
        auto it = m_pools.find(key);
        if (it != m_pools.end())
            it->second.starting = false;
        if (!started) {
            if (it != m_pools.end()) {
                it->second.error = "a warm copy could not start: " + started.error().message;
                it->second.retryAtMs = nowMs() + kRetryAfterFailureMs;
            }
            log::warn("warm pool " + key + ": " + started.error().message);
        } else if (it == m_pools.end() || it->second.removed || it->second.paused ||
                   !(it->second.shape == shape) ||
                   int(it->second.idle.size()) >= it->second.target) {
            ending.push_back({*started, nowMs(), prepared}); // changed while it started
        } else {
            it->second.idle.push_back({*started, nowMs(), prepared});
            it->second.error.clear();
        }
    }
    m_wake.notify_all(); // remove() may wait for this start
    endCopies(std::move(ending));
}

void WarmPool::renewLeases()
{
    std::vector<std::pair<std::string, runtime::SandboxHandle>> copies;
    {
        std::lock_guard lock(m_mutex);
        for (const auto& [key, p] : m_pools)
            for (const auto& c : p.idle)
                copies.emplace_back(key, c.handle);
    }
    std::vector<Copy> dead;
    for (const auto& [key, handle] : copies) {
        if (m_runtime.renewLease(handle, 0, m_settings.leaseGraceMs))
            continue;
        std::lock_guard lock(m_mutex);
        auto it = m_pools.find(key);
        if (it == m_pools.end())
            continue;
        auto& idle = it->second.idle;
        const auto at = std::find_if(idle.begin(), idle.end(),
                                     [&](const Copy& c) { return c.handle.id == handle.id; });
        if (at == idle.end())
            continue; // taken meanwhile: its new owner renews it
        log::warn("warm pool " + key + ": copy " + handle.id + " stopped answering; replaced");
        dead.push_back(*at);
        idle.erase(at);
    }
    endCopies(std::move(dead));
}

void WarmPool::endCopies(std::vector<Copy> copies)
{
    for (const auto& c : copies)
        m_runtime.destroy(c.handle);
}

bool WarmPool::memoryLow(int64_t& availableMb) const
{
    availableMb = availableMemoryMb();
    return availableMb >= 0 && availableMb < m_settings.minFreeMb;
}

} // namespace lizard::sandboxes
