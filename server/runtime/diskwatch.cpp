#include "runtime/diskwatch.h"

#include "common/log.h"
#include "runtime/agentping.h"
#include "runtime/agenttool.h"
#include "runtime/processtree.h"
#include "runtime/procinfo.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <sys/resource.h>
#include <vector>

namespace lizard::runtime {

namespace {

// A walk longer than this reports partial (its bytes are then a lower bound).
constexpr int kWalkTimeoutMs = 5000;

} // namespace

DiskWatch::DiskWatch(std::string agentPath, std::string sandboxesDir, nlohmann::json idMap)
    : m_agentPath(std::move(agentPath)), m_sandboxesDir(std::move(sandboxesDir)),
      m_idMap(std::move(idMap))
{
    if (const char* env = std::getenv("LIZARD_DISK_WATCH_MS"); env && *env) {
        int normal = 0, over = 0;
        if (std::sscanf(env, "%d,%d", &normal, &over) == 2 && normal >= 10 && over >= 10) {
            m_intervalMs = normal;
            m_overIntervalMs = over;
        } else {
            log::warn(
                "LIZARD_DISK_WATCH_MS must be \"<ms>,<ms while over>\" (each >= 10): ignored");
        }
    }
    m_thread = std::thread([this] { run(); });
}

DiskWatch::~DiskWatch()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    m_thread.join();
}

void DiskWatch::add(const std::string& id, pid_t initPid, unsigned long long startTime, int gb,
                    const std::string& socketPath)
{
    {
        std::lock_guard lock(m_mutex);
        Entry& e = m_entries[id];
        e.initPid = initPid;
        e.startTime = startTime;
        e.gb = gb;
        e.socketPath = socketPath;
        e.agentTold = false;
        e.limitBytes = std::uint64_t(gb) << 30;
        e.limitInodes = inodeBound(gb);
        // The layer's growth is measured from here: a writer that starts with the sandbox
        // is seen on the first walk, not two intervals later.
        e.measuredAt = std::chrono::steady_clock::now();
    }
    m_wake.notify_all();
}

void DiskWatch::remove(const std::string& id)
{
    std::lock_guard lock(m_mutex);
    m_entries.erase(id);
}

DiskWatch::State DiskWatch::state(const std::string& id) const
{
    std::lock_guard lock(m_mutex);
    auto it = m_entries.find(id);
    if (it == m_entries.end())
        return {};
    const Entry& e = it->second;
    return {e.gb, e.over, e.bytes, e.files, e.limitInodes};
}

void DiskWatch::run()
{
    using Clock = std::chrono::steady_clock;
    std::map<std::string, Clock::time_point> due;
    std::unique_lock lock(m_mutex);
    while (!m_stopping) {
        const auto now = Clock::now();
        auto next = now + std::chrono::milliseconds(m_intervalMs);
        std::vector<std::string> ids;
        for (const auto& [id, e] : m_entries)
            ids.push_back(id);
        for (auto it = due.begin(); it != due.end();)
            it = m_entries.count(it->first) ? std::next(it) : due.erase(it);
        for (const auto& id : ids) {
            auto [at, fresh] = due.try_emplace(id, now);
            if (!fresh && at->second > now) {
                next = std::min(next, at->second);
                continue;
            }
            // Removed while an earlier sandbox of this round was measured (the lock is
            // released for each walk).
            const auto entry = m_entries.find(id);
            if (entry == m_entries.end())
                continue;
            // Measured without the lock (a walk takes a while); the entry is copied back
            // unless the sandbox was removed or replaced meanwhile.
            Entry work = entry->second;
            lock.unlock();
            round(id, work);
            lock.lock();
            auto live = m_entries.find(id);
            if (live == m_entries.end() || live->second.startTime != work.startTime)
                continue;
            live->second = work;
            at->second = Clock::now() +
                         std::chrono::milliseconds(work.nextMs > 0 ? work.nextMs : m_intervalMs);
            next = std::min(next, at->second);
        }
        m_wake.wait_until(lock, next);
    }
}

bool DiskWatch::round(const std::string& id, Entry& e)
{
    if (!processMatches(e.initPid, e.startTime))
        return false;
    nlohmann::json config{{"mode", "usage"},
                          {"idMap", m_idMap},
                          {"target", m_sandboxesDir + "/" + id},
                          {"timeoutMs", kWalkTimeoutMs}};
    auto measured = runAgentTool(m_agentPath, "usage", config, kWalkTimeoutMs + 5000);
    if (!measured) {
        if (processMatches(e.initPid, e.startTime))
            log::warn("sandbox " + id + ": disk usage not measured: " + measured.error().message);
        return false;
    }
    const Entry before = e;
    e.bytes = measured->value("bytes", std::uint64_t(0));
    e.files = measured->value("files", std::uint64_t(0));
    e.measuredAt = std::chrono::steady_clock::now();
    const bool over = e.bytes > e.limitBytes || e.files > e.limitInodes;
    if (over != e.over)
        log::info("sandbox " + id + ": writable layer " + std::to_string(e.bytes >> 20) +
                  " MiB in " + std::to_string(e.files) + " files, " +
                  (over ? "over" : "back under") + " its " + std::to_string(e.gb) + " GiB or " +
                  std::to_string(e.limitInodes) + " files: files may " +
                  (over ? "no longer grow" : "grow again"));
    if (over != e.over || !e.agentTold) // what the agent's exec starts from now on
        e.agentTold = pingAgent(e.socketPath, 1000,
                                nlohmann::json{{"op", "ping"}, {"diskFull", over}}.dump());
    e.over = over;
    e.nextMs = nextInterval(before, e);
    if (over)
        limitAll(e);
    else if (!e.limited.empty())
        restoreAll(e);
    return true;
}

int DiskWatch::nextInterval(const Entry& before, const Entry& after) const
{
    if (after.over)
        return m_overIntervalMs;
    if (before.measuredAt == std::chrono::steady_clock::time_point{})
        return m_intervalMs;
    const double seconds =
        std::chrono::duration<double>(after.measuredAt - before.measuredAt).count();
    double untilBound = 1e9; // seconds
    auto consider = [&](std::uint64_t was, std::uint64_t now, std::uint64_t limit) {
        if (now > was && seconds > 0)
            untilBound = std::min(untilBound, double(limit - std::min(limit, now)) /
                                                  (double(now - was) / seconds));
    };
    consider(before.bytes, after.bytes, after.limitBytes);
    consider(before.files, after.files, after.limitInodes);
    const double ms = untilBound * 1000 / 2;
    return int(std::clamp(ms, double(m_overIntervalMs), double(m_intervalMs)));
}

void DiskWatch::limitAll(Entry& e)
{
    const rlimit zero{0, 0};
    for (pid_t pid : processTree(e.initPid)) {
        if (pid == e.initPid)
            continue; // the agent: the API's file writes stay possible, and its spawns too
        auto st = readProcStat(pid);
        if (!st)
            continue;
        auto known = e.limited.find(pid);
        if (known != e.limited.end() && known->second == st->startTime)
            continue;
        if (::prlimit(pid, RLIMIT_FSIZE, &zero, nullptr) == 0)
            e.limited[pid] = st->startTime;
    }
}

void DiskWatch::restoreAll(Entry& e)
{
    // Nothing to give back: raising a hard limit needs CAP_SYS_RESOURCE in the host's initial
    // namespace, which an ordinary user does not have. The processes limited while over keep
    // RLIMIT_FSIZE 0 until they end; new ones (PID 1's children) are not limited.
    e.limited.clear();
}

} // namespace lizard::runtime
