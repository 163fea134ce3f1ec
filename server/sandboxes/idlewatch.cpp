#include "sandboxes/idlewatch.h"

#include "sandboxes/sandboxmanager.h"
#include "store/store.h"

#include <algorithm>
#include <chrono>
#include <set>

namespace lizard::sandboxes {

namespace net = http::net;

int64_t IdleWatch::clockMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

IdleWatch::IdleWatch(SandboxManager& manager, store::Store& store, net::io_context& ioc,
                     net::thread_pool& workers)
    : m_manager(manager), m_store(store), m_ioc(ioc), m_workers(workers)
{
}

IdleWatch::~IdleWatch()
{
    stop();
}

void IdleWatch::start()
{
    scheduleSweep();
}

void IdleWatch::stop()
{
    std::lock_guard lock(m_timerMutex);
    m_stopped = true;
    if (m_timer)
        m_timer->cancel();
}

bool IdleWatch::alive(const std::string& id) const
{
    const store::SandboxPtr rec = m_store.sandbox(id);
    return rec && rec->running();
}

bool IdleWatch::touch(const std::string& id)
{
    // Only live sandboxes get an entry: requests naming unknown ids must not grow the map.
    const store::SandboxPtr rec = m_store.sandbox(id);
    if (!rec || !rec->running())
        return false;
    bool pausing = false;
    {
        std::lock_guard lock(m_shared->mutex);
        Usage& u = m_shared->usage[id];
        u.lastUseMs = clockMs();
        pausing = u.pausing;
    }
    // Read after the touch: a policy pause either saw this use (and gave up) or had stored its
    // "paused" (or still has its mark) by now.
    const store::SandboxPtr now = m_store.sandbox(id);
    return pausing || (now && now->pausedByPolicy());
}

std::shared_ptr<void> IdleWatch::hold(const std::string& id)
{
    if (!alive(id))
        return nullptr;
    {
        std::lock_guard lock(m_shared->mutex);
        Usage& u = m_shared->usage[id];
        ++u.holds;
        u.lastUseMs = clockMs();
    }
    // Not null: the holder tests it (a null shared_ptr with a deleter reads as "nothing").
    struct Hold
    {
        Hold(std::weak_ptr<Shared> s, std::string i) : shared(std::move(s)), id(std::move(i)) {}
        Hold(const Hold&) = delete;
        Hold& operator=(const Hold&) = delete;
        std::weak_ptr<Shared> shared;
        std::string id;
        ~Hold()
        {
            const auto s = shared.lock();
            if (!s)
                return;
            std::lock_guard lock(s->mutex);
            const auto it = s->usage.find(id);
            if (it == s->usage.end())
                return; // the sandbox ended meanwhile
            it->second.holds = std::max(0, it->second.holds - 1);
            it->second.lastUseMs = clockMs();
        }
    };
    return std::make_shared<Hold>(m_shared, id);
}

void IdleWatch::wake(const std::string& id, const std::string& trigger,
                     std::function<void(Status)> then)
{
    const int64_t startedMs = clockMs();
    {
        std::lock_guard lock(m_shared->mutex);
        Usage& u = m_shared->usage[id];
        u.waiters.push_back(std::move(then));
        if (u.waking)
            return; // the resume under way answers this caller too
        u.waking = true;
    }
    m_manager.resumeOnDemand(id, trigger, startedMs, [shared = m_shared, id](Status s) {
        std::vector<std::function<void(Status)>> waiters;
        {
            std::lock_guard lock(shared->mutex);
            const auto it = shared->usage.find(id);
            if (it != shared->usage.end()) {
                waiters.swap(it->second.waiters);
                it->second.waking = false;
                it->second.lastUseMs = clockMs();
            }
        }
        for (auto& w : waiters)
            w(s);
    });
}

void IdleWatch::forget(const std::string& id)
{
    std::lock_guard lock(m_shared->mutex);
    const auto it = m_shared->usage.find(id);
    // A resume under way still answers its waiters (NOT_FOUND); the sweep drops the entry later.
    if (it != m_shared->usage.end() && !it->second.waking)
        m_shared->usage.erase(it);
}

void IdleWatch::beginPause(const std::string& id)
{
    std::lock_guard lock(m_shared->mutex);
    m_shared->usage[id].pausing = true;
}

void IdleWatch::endPause(const std::string& id)
{
    std::lock_guard lock(m_shared->mutex);
    if (const auto it = m_shared->usage.find(id); it != m_shared->usage.end())
        it->second.pausing = false;
}

bool IdleWatch::stillIdle(const std::string& id, int idlePauseMinutes) const
{
    std::lock_guard lock(m_shared->mutex);
    const auto it = m_shared->usage.find(id);
    if (it == m_shared->usage.end())
        return false;
    return it->second.holds == 0 &&
           clockMs() - it->second.lastUseMs >= int64_t(idlePauseMinutes) * m_minuteMs;
}

void IdleWatch::scheduleSweep()
{
    std::lock_guard lock(m_timerMutex);
    if (m_stopped)
        return;
    // A tenth of a minute, at most 5 s: how late an idle pause may come.
    const auto interval = std::chrono::milliseconds(std::clamp<int64_t>(m_minuteMs / 10, 20, 5000));
    m_timer = std::make_shared<net::steady_timer>(m_ioc, interval);
    m_timer->async_wait([this](boost::system::error_code ec) {
        if (ec)
            return;
        net::post(m_workers, [this] {
            sweep();
            scheduleSweep();
        });
    });
}

void IdleWatch::sweep()
{
    const int64_t now = clockMs();
    std::vector<std::string> idle;
    std::set<std::string> live;
    const auto sandboxes = m_store.runningSandboxes();
    {
        std::lock_guard lock(m_shared->mutex);
        for (const store::SandboxPtr& rec : sandboxes) {
            live.insert(rec->id);
            auto [it, added] = m_shared->usage.try_emplace(rec->id);
            Usage& u = it->second;
            if (added)
                u.lastUseMs = now; // first seen (created, adopted): its idle time starts now
            if (rec->paused() || rec->idlePauseMinutes <= 0 || u.holds > 0 || u.pausing || u.waking)
                continue;
            if (now - u.lastUseMs >= int64_t(rec->idlePauseMinutes) * m_minuteMs) {
                u.pausing = true;
                idle.push_back(rec->id);
            }
        }
        // Entries of sandboxes that ended without a forget (a use raced with their kill).
        for (auto it = m_shared->usage.begin(); it != m_shared->usage.end();) {
            if (!live.count(it->first) && !it->second.waking && it->second.holds == 0)
                it = m_shared->usage.erase(it);
            else
                ++it;
        }
    }
    for (const std::string& id : idle)
        m_manager.pauseForIdle(id);
}

} // namespace lizard::sandboxes
