// SandboxManager: the lifecycle policies (api/DECISIONS.md, "Lifecycle policies"). The deadline
// of a sandbox with onTimeout "pause" pauses it and leaves it without a deadline until a resume
// starts its lifetime again; the idle policy pauses a sandbox nothing used for a while; a
// sandbox a policy paused is resumed by the next call that needs it.
#include "common/log.h"
#include "common/timeutil.h"
#include "sandboxes/sandboxmanager.h"

namespace lizard::sandboxes {

namespace net = http::net;

namespace {

// A pause at the deadline that fails is tried again this much later (the sandbox runs on).
constexpr int64_t kDeadlinePauseRetryMs = 30000;

std::string minutesText(int n)
{
    return std::to_string(n) + (n == 1 ? " minute" : " minutes");
}

} // namespace

Status SandboxManager::setLifecycle(const std::string& id, const LifecyclePolicy& policy)
{
    const store::SandboxPtr before = running(id);
    if (!before)
        return Error{ErrorKind::NotFound, "NOT_FOUND", "sandbox " + id + " not found"};
    if (Status s = m_store.setLifecyclePolicy(id, policy.onTimeout, policy.idlePauseMinutes); !s)
        return s;
    m_idle->touch(id); // a new idle policy counts from now
    std::string text = "lifecycle: at its timeout " +
                       std::string(policy.onTimeout == kOnTimeoutPause ? "paused" : "killed");
    text += policy.idlePauseMinutes > 0
                ? ", paused after " + minutesText(policy.idlePauseMinutes) + " unused"
                : ", no idle pause";
    m_logs.append(id, "info", "lifecycle", text);
    recordActivity(
        id, "lifecycle",
        {{"onTimeout", policy.onTimeout}, {"idlePauseMinutes", policy.idlePauseMinutes}});
    // The lease carries the deadline only where the deadline kills (renewLease).
    if (before->onTimeout != policy.onTimeout) {
        net::post(m_workers, [this, id] {
            if (store::SandboxPtr rec = running(id))
                renewLease(*rec);
        });
    }
    return okStatus();
}

int64_t SandboxManager::restartLifetime(const store::SandboxRecord& rec)
{
    // A deadline with onTimeout "pause" paused it and left it none: it gets its lifetime again,
    // counted from the resume.
    if (rec.endAtMs != 0 || rec.timeoutMs <= 0)
        return 0;
    const int64_t endAt = nowMs() + rec.timeoutMs;
    if (Status s = m_store.setDeadline(rec.id, endAt, rec.timeoutMs); !s) {
        log::warn("sandbox " + rec.id +
                  ": its deadline could not be restarted: " + s.error().message);
        return 0;
    }
    armDeadline(rec.id, endAt);
    recordActivity(rec.id, "timeout",
                   {{"timeoutMs", rec.timeoutMs}, {"endAt", isoUtc(endAt)}, {"reason", "resume"}});
    return endAt;
}

std::string SandboxManager::lifetimeNote(const store::SandboxRecord& rec, int64_t restartedEndAt)
{
    if (restartedEndAt == 0)
        return {};
    return "; its timeout starts again: " + std::to_string(rec.timeoutMs / 1000) + " s (ends " +
           isoUtc(restartedEndAt) + ")";
}

void SandboxManager::pauseAtDeadline(const std::string& id)
{
    m_idle->beginPause(id); // a call arriving meanwhile wakes it once the pause is done
    net::post(m_workers, [this, id] {
        auto ops = lockOperations(id);
        struct EndMark
        {
            IdleWatch& idle;
            const std::string& id;
            ~EndMark() { idle.endPause(id); }
        } endMark{*m_idle, id};
        const store::SandboxPtr rec = m_store.sandbox(id);
        if (!rec || !rec->running())
            return;
        if (rec->endAtMs == 0 || rec->endAtMs > nowMs() + 5) {
            if (rec->endAtMs != 0)
                armDeadline(id, rec->endAtMs); // extended meanwhile
            return;
        }
        if (rec->onTimeout != kOnTimeoutPause) // the policy changed meanwhile
            return kill(id, "expired", [](Status) {});
        if (rec->paused()) {
            // Paused already (by the user or the idle policy, who stays its pauser): only the
            // deadline goes.
            if (m_store.setDeadline(id, 0, rec->timeoutMs))
                m_logs.append(id, "info", "lifecycle",
                              "its timeout passed while paused: it stays paused, without a "
                              "deadline until it is resumed (onTimeout pause)");
            return;
        }
        if (Status s = freezeLocked(*rec, kPausedByTimeout); !s) {
            m_logs.append(id, "error", "lifecycle",
                          "its timeout passed but the pause failed (" + s.error().message +
                              "); it runs on and the pause is tried again in 30 s");
            armDeadline(id, nowMs() + kDeadlinePauseRetryMs);
            return;
        }
        m_store.setDeadline(id, 0, rec->timeoutMs);
        recordActivity(id, "pause", {{"reason", kPausedByTimeout}});
        log::info("sandbox " + id + " paused at its deadline (onTimeout pause)");
        m_logs.append(id, "warn", "lifecycle",
                      "paused: its timeout passed (onTimeout pause); files and memory are kept, "
                      "the next call that needs it resumes it");
    });
}

void SandboxManager::pauseForIdle(const std::string& id)
{
    net::post(m_workers, [this, id] {
        auto ops = lockOperations(id);
        struct EndMark
        {
            IdleWatch& idle;
            const std::string& id;
            ~EndMark() { idle.endPause(id); }
        } endMark{*m_idle, id};
        const store::SandboxPtr rec = running(id);
        if (!rec || rec->paused() || rec->idlePauseMinutes <= 0 ||
            !m_idle->stillIdle(id, rec->idlePauseMinutes))
            return; // used (or its policy changed) since the sweep decided
        if (Status s = freezeLocked(*rec, kPausedByIdle); !s) {
            // Counted as a use: the next try comes a whole idle time later, not every sweep.
            m_idle->touch(id);
            m_logs.append(id, "error", "lifecycle",
                          "the idle pause failed (" + s.error().message + ")");
            return;
        }
        recordActivity(id, "pause",
                       {{"reason", kPausedByIdle}, {"idlePauseMinutes", rec->idlePauseMinutes}});
        log::info("sandbox " + id + " paused: unused for " + minutesText(rec->idlePauseMinutes));
        m_logs.append(id, "info", "lifecycle",
                      "paused: unused for " + minutesText(rec->idlePauseMinutes) +
                          " (idlePauseMinutes); the next call that needs it resumes it");
    });
}

void SandboxManager::resumeOnDemand(const std::string& id, const std::string& trigger,
                                    int64_t startedMs, std::function<void(Status)> done)
{
    net::post(m_workers, [this, id, trigger, startedMs, done = std::move(done)] {
        auto ops = lockOperations(id);
        const store::SandboxPtr rec = running(id);
        if (!rec)
            return done(Error{ErrorKind::NotFound, "NOT_FOUND", "sandbox " + id + " not found"});
        if (!rec->pausedByPolicy())
            return done(okStatus()); // running, or the user's pause: the call answers as usual
        const auto thawed = thawLocked(*rec);
        if (!thawed)
            return done(thawed.error());
        const int64_t waitedMs = IdleWatch::clockMs() - startedMs;
        recordActivity(id, "resume",
                       {{"reason", "demand"},
                        {"trigger", trigger},
                        {"pausedBy", rec->pausedBy},
                        {"waitedMs", waitedMs}});
        log::info("sandbox " + id + " resumed on demand (" + trigger + "), " +
                  std::to_string(waitedMs) + " ms");
        m_logs.append(id, "info", "lifecycle",
                      "resumed on demand by " + trigger + " (paused by " +
                          (rec->pausedBy == kPausedByIdle ? "its idle policy" : "its timeout") +
                          "); the call waited " + std::to_string(waitedMs) + " ms" +
                          lifetimeNote(*rec, thawed.value()));
        done(okStatus());
    });
}

} // namespace lizard::sandboxes
