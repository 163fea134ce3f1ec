// SandboxManager health checks: a sandbox whose agent died while lizard-local runs (killed
// from outside, out of memory) must not stay "running" in the API forever. The same rounds
// renew the agents' leases, so that sandboxes end by themselves once lizard-local is gone.
#include "common/log.h"
#include "sandboxes/sandboxmanager.h"

#include <algorithm>

namespace lizard::sandboxes {

namespace {

constexpr auto kHealthInterval = std::chrono::milliseconds(5000);
// A lease is renewed at least four times per grace period (short ones are for tests).
constexpr auto kShortestInterval = std::chrono::milliseconds(250);
// The PID 1 is looked at, never only asked: an agent at its sandbox's pids limit, or starved
// of CPU by a fork bomb of its own sandbox, answers late or not at all and still runs. Twice
// in a row guards against a pid read mid-exit.
constexpr int kFailuresBeforeLost = 2;

} // namespace

void SandboxManager::startHealthChecks()
{
    scheduleHealthCheck();
}

void SandboxManager::scheduleHealthCheck()
{
    std::lock_guard lock(m_mutex);
    if (m_shutdown)
        return;
    m_healthTimer = std::make_shared<http::net::steady_timer>(m_ioc, healthInterval());
    m_healthTimer->async_wait([this](boost::system::error_code ec) {
        if (ec)
            return;
        http::net::post(m_workers, [this] {
            checkHealth();
            scheduleHealthCheck();
        });
    });
}

std::chrono::milliseconds SandboxManager::healthInterval() const
{
    if (m_orphanGraceMs <= 0)
        return kHealthInterval;
    return std::clamp(std::chrono::milliseconds(m_orphanGraceMs / 4), kShortestInterval,
                      kHealthInterval);
}

void SandboxManager::renewLease(const store::SandboxRecord& rec)
{
    // A frozen agent cannot answer; its lease restarts when it thaws (agent/serve/lease.h).
    // A sandbox whose deadline pauses it gets none in its lease: lizard-local pauses it there,
    // and a thaw after that deadline must not find its agent ending it.
    if (!rec.paused())
        m_runtime.renewLease(rec.handle, rec.onTimeout == kOnTimeoutPause ? 0 : rec.endAtMs,
                             m_orphanGraceMs);
}

void SandboxManager::checkSoon(const std::string& id)
{
    checkSoon(id, 0);
}

void SandboxManager::checkSoon(const std::string& id, int round)
{
    // The first look waits a moment: a killed PID 1 takes a little while to be reaped.
    auto timer = std::make_shared<http::net::steady_timer>(
        m_ioc, std::chrono::milliseconds(round == 0 ? 50 : 250));
    timer->async_wait([this, timer, id, round](boost::system::error_code ec) {
        if (ec)
            return;
        http::net::post(m_workers, [this, id, round] {
            {
                std::lock_guard lock(m_mutex);
                if (m_shutdown)
                    return;
            }
            const store::SandboxPtr rec = m_store.sandbox(id);
            if (!rec || !rec->running() || m_runtime.isPresent(rec->handle))
                return;
            if (round + 1 < kFailuresBeforeLost)
                return checkSoon(id, round + 1);
            log::warn("sandbox " + id + ": its agent is gone (pid " +
                      std::to_string(rec->handle.initPid) +
                      ", seen after its connection broke); marked stopped and cleaned up");
            kill(id, "lost", [](Status) {});
        });
    });
}

void SandboxManager::checkHealth()
{
    std::map<std::string, int> failures;
    for (const store::SandboxPtr& rec : m_store.runningSandboxes()) {
        if (m_runtime.isPresent(rec->handle)) {
            renewLease(*rec);
            continue;
        }
        const int n = m_healthFailures[rec->id] + 1;
        if (n < kFailuresBeforeLost) {
            failures[rec->id] = n;
            continue;
        }
        if (m_store.sandbox(rec->id) && m_store.sandbox(rec->id)->running()) {
            log::warn("sandbox " + rec->id + ": its agent is gone (pid " +
                      std::to_string(rec->handle.initPid) + "); marked stopped and cleaned up");
            kill(rec->id, "lost", [](Status) {});
        }
    }
    m_healthFailures = std::move(failures);
}

} // namespace lizard::sandboxes
