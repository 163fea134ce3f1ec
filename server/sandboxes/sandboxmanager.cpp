#include "sandboxes/sandboxmanager.h"

#include "common/crypto.h"
#include "common/log.h"
#include "common/timeutil.h"
#include "sandboxes/activitylog.h"
#include "sandboxes/kernelprestart.h"
#include "sandboxes/snapshotservice.h"

namespace lizard::sandboxes {

namespace net = http::net;

namespace {

std::string createdText(const store::SandboxRecord& r)
{
    std::string text = "created (template " + r.templateName + ", size " + r.size + ", " +
                       std::to_string(r.memoryMb) + " MiB memory";
    if (r.endAtMs != 0)
        text += ", timeout " + std::to_string((r.endAtMs - r.startedAtMs) / 1000) + " s";
    if (r.endAtMs != 0 && r.onTimeout == kOnTimeoutPause)
        text += ", paused at its timeout";
    if (r.idlePauseMinutes > 0)
        text += ", paused after " + std::to_string(r.idlePauseMinutes) + " min unused";
    if (r.fromPool)
        text += ", from a warm copy";
    return text + ")";
}

} // namespace

SandboxManager::SandboxManager(store::Store& store, runtime::Runtime& runtime, net::io_context& ioc,
                               net::thread_pool& workers, int maxRunning)
    : m_store(store), m_runtime(runtime), m_ioc(ioc), m_workers(workers), m_maxRunning(maxRunning),
      m_snapshotService(std::make_unique<SnapshotService>(store, runtime, *this)),
      m_terminals(ioc.get_executor()),
      m_idle(std::make_unique<IdleWatch>(*this, store, ioc, workers))
{
}

SandboxManager::~SandboxManager() = default;

int SandboxManager::runningCount() const
{
    std::lock_guard lock(m_mutex);
    return m_store.runningCount() + m_starting;
}

store::SandboxPtr SandboxManager::running(const std::string& id) const
{
    auto rec = m_store.sandbox(id);
    if (!rec || !rec->running())
        return nullptr;
    // Expired: its timer is destroying it right now (one the deadline pauses stays).
    if (rec->endAtMs != 0 && nowMs() >= rec->endAtMs && rec->onTimeout != kOnTimeoutPause)
        return nullptr;
    return rec;
}

void SandboxManager::create(CreateSandboxParams params,
                            std::function<void(Result<store::SandboxPtr>)> done)
{
    {
        std::lock_guard lock(m_mutex);
        const int inUse = m_store.runningCount() + m_starting;
        if (inUse >= m_maxRunning) {
            Error e{ErrorKind::LimitReached, "LIMIT_EXCEEDED",
                    std::to_string(inUse) + " sandboxes are running, the limit is " +
                        std::to_string(m_maxRunning) + " (lizard-local --max-running)"};
            net::post(m_workers, [done = std::move(done), e] { done(e); });
            return;
        }
        ++m_starting;
    }
    net::post(m_workers, [this, params = std::move(params), done = std::move(done)]() mutable {
        runtime::SandboxSpec spec;
        spec.id = "sb_" + randomLowerAlnum(16);
        spec.templateName = params.templateName;
        spec.limits = params.limits;
        spec.envs = params.envs;
        spec.internetAccess = params.internetAccess;
        spec.allowList = !params.allowedHosts.empty();
        spec.allowCidrs = params.allowedHosts.cidrs;
        spec.allowNames = params.allowedHosts.names;
        spec.filesFrom = params.filesFrom;
        spec.diskGb = params.diskGb;
        spec.shmMb = params.shmMb;
        spec.endAtMs = params.timeoutMs > 0 ? nowMs() + params.timeoutMs : 0;
        if (params.lifecycle.onTimeout == kOnTimeoutPause)
            spec.endAtMs = 0; // the agent's lease must not end it there (renewLease)
        spec.orphanGraceMs = m_orphanGraceMs;
        auto release = [this] {
            std::lock_guard lock(m_mutex);
            --m_starting;
        };
        const std::optional<runtime::SandboxHandle> warm = claimWarm(params, spec);
        auto started = warm ? Result<runtime::SandboxHandle>(*warm) : startCold(params, spec);
        if (!started) {
            release();
            log::warn("sandbox " + spec.id + " did not start: " + started.error().message);
            return done(started.error());
        }
        store::SandboxRecord r;
        r.id = spec.id;
        r.projectId = params.projectId;
        r.templateName = params.templateName;
        r.size = params.size;
        r.cpus = params.limits.cpus;
        r.memoryMb = params.limits.memoryMb;
        r.shmMb = params.shmMb;
        r.limitsEnforced = started->limitsEnforced;
        r.startedAtMs = nowMs();
        r.endAtMs = params.timeoutMs > 0 ? r.startedAtMs + params.timeoutMs : 0;
        r.metadata = std::move(params.metadata);
        r.envs = std::move(params.envs);
        r.internetAccess = started->internetAccess;
        r.allowedHosts = params.allowedHosts.entries;
        r.fromPool = warm.has_value();
        r.handle = *started;
        r.onTimeout = params.lifecycle.onTimeout;
        r.idlePauseMinutes = params.lifecycle.idlePauseMinutes;
        r.timeoutMs = params.timeoutMs;
        if (Status s = m_store.insertSandbox(r); !s) {
            release();
            log::warn("sandbox " + r.id +
                      " started but could not be recorded, destroying it: " + s.error().message);
            m_runtime.destroy(r.handle);
            if (!params.volumeId.empty())
                m_store.detachVolume(params.volumeId, r.id);
            return done(s.error());
        }
        release();
        if (r.endAtMs != 0)
            armDeadline(r.id, r.endAtMs);
        nlohmann::json created = {{"template", r.templateName},
                                  {"size", r.size},
                                  {"timeoutMs", params.timeoutMs},
                                  {"envNames", nlohmann::json::array()}};
        for (const auto& [name, value] : r.envs)
            created["envNames"].push_back(name);
        if (!params.filesFrom.empty())
            created["filesFrom"] = params.filesFrom;
        if (r.fromPool)
            created["warm"] = true;
        if (r.onTimeout != kOnTimeoutKill)
            created["onTimeout"] = r.onTimeout;
        if (r.idlePauseMinutes > 0)
            created["idlePauseMinutes"] = r.idlePauseMinutes;
        recordActivity(r.id, "create", std::move(created));
        log::info("sandbox " + r.id + " started (" + r.templateName + ", " + r.size + ", project " +
                  r.projectId + ", pid " + std::to_string(r.handle.initPid) + ")");
        m_logs.append(r.id, "info", "lifecycle", createdText(r));
        done(m_store.sandbox(r.id));
    });
}

WarmShape SandboxManager::warmShape(const CreateSandboxParams& p)
{
    return {p.templateName, p.filesFrom, p.limits, p.internetAccess, p.diskGb, p.shmMb};
}

std::string SandboxManager::warmKey(const CreateSandboxParams& p)
{
    return p.filesFrom.empty() ? WarmPool::templateKey(p.templateName)
                               : WarmPool::snapshotKey(p.filesFrom);
}

std::optional<runtime::SandboxHandle> SandboxManager::claimWarm(const CreateSandboxParams& params,
                                                                runtime::SandboxSpec& spec)
{
    if (!m_pools || !params.volumeId.empty() || !params.allowedHosts.empty())
        return std::nullopt;
    auto copy = m_pools->take(warmKey(params), warmShape(params));
    if (!copy)
        return std::nullopt;
    const std::string coldId = spec.id;
    spec.id = copy->handle.id;
    if (copy->prepared)
        spec.claimEnvsFile = kClaimEnvsFile;
    if (m_runtime.claim(copy->handle, spec))
        return copy->handle;
    log::warn("warm copy " + copy->handle.id + " did not take its claim; starting " + coldId +
              " cold instead");
    m_runtime.destroy(copy->handle);
    spec.id = coldId;
    spec.claimEnvsFile.clear();
    return std::nullopt;
}

Result<runtime::SandboxHandle> SandboxManager::startCold(const CreateSandboxParams& params,
                                                         runtime::SandboxSpec& spec)
{
    runtime::VolumeMount volume;
    if (!params.volumeId.empty()) {
        auto attached = attachVolume(params.volumeId, spec);
        if (!attached)
            return attached.error();
        volume = *attached;
    }
    auto started = m_runtime.start(spec);
    if (!params.volumeId.empty())
        finishVolume(params.volumeId, spec.id, bool(started), volume);
    return started;
}

void SandboxManager::startPools(PoolSettings settings)
{
    settings.leaseGraceMs = m_orphanGraceMs;
    m_pools = std::make_unique<WarmPool>(
        m_runtime, settings,
        [this] {
            std::lock_guard lock(m_mutex);
            return m_starting > 0;
        },
        [](const runtime::SandboxHandle& handle, const WarmShape& shape) {
            // A snapshot's copies keep its own contexts; only the template starts a kernel.
            if (shape.templateName != "interpreter" || !shape.filesFrom.empty())
                return false;
            const Status s = prestartKernel(handle.socketPath);
            if (!s)
                log::warn("warm copy " + handle.id + ": " + s.error().message);
            return bool(s);
        });
    m_pools->start();
}

void SandboxManager::kill(const std::string& id, const std::string& reason,
                          std::function<void(Status)> done)
{
    store::SandboxPtr rec = m_store.markStopped(id, reason);
    if (!rec) {
        net::post(m_workers, [id, done = std::move(done)] {
            done(Error{ErrorKind::NotFound, "NOT_FOUND", "sandbox " + id + " not found"});
        });
        return;
    }
    cancelDeadline(id);
    const bool expected = reason == "killed";
    m_logs.append(id,
                  expected              ? "info"
                  : reason == "expired" ? "warn"
                                        : "error",
                  "lifecycle",
                  reason == "killed"    ? "killed"
                  : reason == "expired" ? "killed: its timeout passed"
                  : reason == "lost"    ? "lost: its init process (PID 1) is gone"
                                        : "killed (" + reason + ")");
    recordActivity(id, "kill", {{"reason", reason}});
    if (m_activity != nullptr)
        m_activity->runnerRequests().drop(id);
    m_terminals.forget(id);
    m_idle->forget(id);
    {
        std::lock_guard lock(m_mutex);
        m_operationLocks.erase(id); // a capture still running keeps its own reference
    }
    net::post(m_workers, [this, rec, reason, done = std::move(done)] {
        // The answer does not wait for the clean-up: a fork bomb's thousand processes take
        // a while to exit, but from here on none of them runs again.
        m_runtime.end(rec->handle);
        done(okStatus());
        // Written before the directory (and the log in it) goes, so that followers see it.
        if (m_activity != nullptr)
            m_activity->flush();
        m_runtime.destroy(rec->handle);
        m_logs.end(rec->id); // its log went with its directory: the streams end
        log::info("sandbox " + rec->id + " destroyed (" + reason + ")");
    });
}

Status SandboxManager::setTimeout(const std::string& id, int64_t timeoutMs)
{
    if (!running(id))
        return Error{ErrorKind::NotFound, "NOT_FOUND", "sandbox " + id + " not found"};
    const int64_t endAt = nowMs() + timeoutMs;
    // The lifetime given here is also the one a resume after a pause at the deadline restarts.
    if (Status s = m_store.setDeadline(id, endAt, timeoutMs); !s)
        return s;
    armDeadline(id, endAt);
    m_logs.append(id, "info", "lifecycle",
                  "timeout set to " + std::to_string(timeoutMs / 1000) + " s (ends " +
                      isoUtc(endAt) + ")");
    recordActivity(id, "timeout", {{"timeoutMs", timeoutMs}, {"endAt", isoUtc(endAt)}});
    net::post(m_workers, [this, id] {
        if (store::SandboxPtr rec = running(id))
            renewLease(*rec);
    });
    return okStatus();
}

void SandboxManager::armDeadline(const std::string& id, int64_t endAtMs)
{
    std::lock_guard lock(m_mutex);
    if (m_shutdown)
        return;
    auto& timer = m_timers[id];
    if (timer)
        timer->cancel();
    timer = std::make_shared<net::steady_timer>(m_ioc);
    timer->expires_after(std::chrono::milliseconds(std::max<int64_t>(0, endAtMs - nowMs())));
    std::weak_ptr<net::steady_timer> weak = timer;
    timer->async_wait([this, id, weak](boost::system::error_code ec) {
        if (ec)
            return; // cancelled or re-armed
        {
            std::lock_guard relock(m_mutex);
            const auto it = m_timers.find(id);
            if (it == m_timers.end() || it->second != weak.lock())
                return; // superseded by a newer deadline
            m_timers.erase(it);
        }
        onDeadline(id);
    });
}

void SandboxManager::cancelDeadline(const std::string& id)
{
    std::lock_guard lock(m_mutex);
    if (const auto it = m_timers.find(id); it != m_timers.end()) {
        it->second->cancel();
        m_timers.erase(it);
    }
}

void SandboxManager::onDeadline(const std::string& id)
{
    const auto rec = m_store.sandbox(id);
    if (!rec || !rec->running())
        return;
    if (rec->endAtMs == 0 || rec->endAtMs > nowMs() + 5) {
        armDeadline(id, rec->endAtMs); // extended meanwhile (or woke early)
        return;
    }
    if (rec->onTimeout == kOnTimeoutPause)
        return pauseAtDeadline(id);
    kill(id, "expired", [](Status) {});
}

void SandboxManager::shutdown()
{
    {
        std::lock_guard lock(m_mutex);
        m_shutdown = true;
        if (m_healthTimer)
            m_healthTimer->cancel();
        for (auto& [id, timer] : m_timers)
            timer->cancel();
        m_timers.clear();
    }
    m_idle->stop();
    if (m_pools)
        m_pools->stop(); // outside m_mutex: its thread may be asking whether a create runs
}

} // namespace lizard::sandboxes

namespace lizard::sandboxes {

void SandboxManager::recordActivity(const std::string& id, const std::string& kind,
                                    nlohmann::json fields)
{
    if (m_activity == nullptr)
        return;
    fields["kind"] = kind;
    m_activity->record(id, std::move(fields));
}

} // namespace lizard::sandboxes
