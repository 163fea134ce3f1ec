// SandboxManager health checks: a sandbox whose agent died while lizard-local runs (killed
// from outside, out of memory) must not stay "running" in the API forever.
#include "api/sandboxmanager.h"
#include "common/log.h"

namespace lizard::api {

namespace {

constexpr auto kHealthInterval = std::chrono::seconds(5);
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
    m_healthTimer = std::make_shared<http::net::steady_timer>(m_ioc, kHealthInterval);
    m_healthTimer->async_wait([this](boost::system::error_code ec) {
        if (ec)
            return;
        http::net::post(m_workers, [this] {
            checkHealth();
            scheduleHealthCheck();
        });
    });
}

void SandboxManager::checkHealth()
{
    std::map<std::string, int> failures;
    for (const store::SandboxPtr& rec : m_store.runningSandboxes()) {
        if (m_runtime.isPresent(rec->handle))
            continue;
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

} // namespace lizard::api
