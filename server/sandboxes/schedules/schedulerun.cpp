#include "sandboxes/schedules/schedulerun.h"

#include "common/crypto.h"
#include "common/log.h"
#include "common/timeutil.h"
#include "sandboxes/sandboxmanager.h"
#include "store/schedulestore.h"

#include <boost/asio/post.hpp>

namespace lizard::sandboxes {

namespace {

// The SDK documents that a command schedule runs in /workspace; a local sandbox has one only
// with a volume.
constexpr const char* kScheduleWorkdir = "/workspace";

std::string runDurationText(int64_t ms)
{
    if (ms < 1000)
        return std::to_string(ms) + " ms";
    return std::to_string(ms / 1000) + "." + std::to_string(ms % 1000 / 100) + " s";
}

} // namespace

ScheduleRun::ScheduleRun(SandboxManager& sandboxes, store::ScheduleStore& store,
                         boost::asio::any_io_executor io, store::ScheduleRecord schedule,
                         Ended ended)
    : m_sandboxes(sandboxes), m_store(store), m_io(std::move(io)), m_schedule(std::move(schedule)),
      m_ended(std::move(ended))
{
    m_run.id = "schrun_" + randomLowerAlnum(16);
    m_run.scheduleId = m_schedule.id;
    m_run.sandboxId = m_schedule.sandboxId;
}

std::string ScheduleRun::label() const
{
    return "schedule " +
           (m_schedule.name.empty() ? std::string() : "\"" + m_schedule.name + "\" ") + "(" +
           m_schedule.id + ")";
}

store::ScheduleRunRecord ScheduleRun::snapshot() const
{
    std::lock_guard lock(m_mutex);
    store::ScheduleRunRecord r = m_run;
    r.output = m_output.text();
    return r;
}

void ScheduleRun::start()
{
    {
        std::lock_guard lock(m_mutex);
        m_run.startedAtMs = m_schedule.lastRunAtMs > 0 ? m_schedule.lastRunAtMs : nowMs();
    }
    if (Status s = m_store.insertRun(snapshot()); !s)
        log::warn(label() + ": run not recorded: " + s.error().message);
    boost::asio::post(m_sandboxes.workers(), [self = shared_from_this()] { self->begin(); });
}

void ScheduleRun::cancel()
{
    std::shared_ptr<runtime::Cancel> c;
    {
        std::lock_guard lock(m_mutex);
        m_cancelled = true;
        c = m_cancel;
    }
    if (!c)
        return;  // not started yet: runCommand sees m_cancelled
    c->cancel(); // a cancelled exec reports nothing more: the run ends here
    commandEnded("interrupted", std::nullopt, "the schedule was deleted");
}

void ScheduleRun::begin()
{
    const std::string& id = m_schedule.sandboxId;
    const store::SandboxPtr sb = m_sandboxes.running(id);
    if (!sb)
        return commandEnded("failed", std::nullopt, "sandbox " + id + " is gone");
    m_sandboxes.logs().append(id, "info", "schedule",
                              label() + ": run " + m_run.id + " started" +
                                  (sb->paused() ? ", waking the sandbox" : ""));
    if (!sb->paused())
        return execute(sb->handle.socketPath);
    m_sandboxes.resume(id, [self = shared_from_this(), id](Status s) {
        if (!s)
            return self->commandEnded("failed", std::nullopt,
                                      "could not wake the sandbox: " + s.error().message);
        {
            std::lock_guard lock(self->m_mutex);
            self->m_run.woke = true;
        }
        // Written now: a server stopped during the run puts the sandbox back to sleep at its
        // next start, knowing the run woke it.
        self->m_store.updateRun(self->snapshot());
        const store::SandboxPtr awake = self->m_sandboxes.running(id);
        if (!awake)
            return self->commandEnded("failed", std::nullopt, "sandbox " + id + " is gone");
        self->execute(awake->handle.socketPath);
    });
}

void ScheduleRun::execute(const std::string& socketPath)
{
    auto agent = std::make_shared<runtime::AgentClient>(m_io, socketPath);
    agent->request({{"op", "stat"}, {"path", kScheduleWorkdir}}, [self = shared_from_this(),
                                                                  agent](Result<nlohmann::json> r) {
        const bool workspace =
            r && r->value("entry", nlohmann::json::object()).value("type", "") == "dir";
        self->runCommand(agent, workspace ? kScheduleWorkdir : "");
    });
}

void ScheduleRun::runCommand(const std::shared_ptr<runtime::AgentClient>& agent, std::string cwd)
{
    bool cancelled;
    {
        std::lock_guard lock(m_mutex);
        cancelled = m_cancelled;
    }
    if (cancelled)
        return commandEnded("interrupted", std::nullopt, "the schedule was deleted");
    runtime::ExecRequest req;
    req.argv = {"/bin/bash", "-c", m_schedule.command};
    req.cwd = std::move(cwd);
    req.user = "root";
    req.timeoutMs = m_schedule.timeoutSeconds * 1000;
    auto self = shared_from_this();
    runtime::ExecHandlers h;
    h.onStarted = [](int) {};
    h.onOutput = [self](runtime::OutStream, std::string_view chunk, std::function<void()> resume) {
        {
            std::lock_guard lock(self->m_mutex);
            self->m_output.feed(chunk);
        }
        resume();
    };
    h.onExit = [self, agent](int exitCode, bool timedOut) {
        if (timedOut)
            return self->commandEnded("timeout", exitCode,
                                      "stopped at its timeout of " +
                                          std::to_string(self->m_schedule.timeoutSeconds) + " s");
        self->commandEnded(exitCode == 0 ? "succeeded" : "failed", exitCode, "");
    };
    h.onError = [self, agent](const Error& e) {
        bool wasCancelled;
        {
            std::lock_guard lock(self->m_mutex);
            wasCancelled = self->m_cancelled;
        }
        if (wasCancelled)
            return self->commandEnded("interrupted", std::nullopt, "the schedule was deleted");
        self->commandEnded("failed", std::nullopt, e.code + ": " + e.message);
    };
    auto handle = agent->exec(std::move(req), std::move(h));
    {
        std::lock_guard lock(m_mutex);
        m_cancel = handle;
        cancelled = m_cancelled;
    }
    if (cancelled) { // deleted while the command was being started
        handle->cancel();
        commandEnded("interrupted", std::nullopt, "the schedule was deleted");
    }
}

void ScheduleRun::commandEnded(std::string status, std::optional<int> exitCode, std::string error)
{
    bool woke;
    {
        std::lock_guard lock(m_mutex);
        if (m_run.status != "running")
            return; // ended already (an exit and an error of the same exec)
        m_run.status = std::move(status);
        m_run.exitCode = exitCode;
        m_run.error = std::move(error);
        woke = m_run.woke;
    }
    if (!woke)
        return end();
    // Back to sleep as it was found.
    m_sandboxes.pause(m_schedule.sandboxId, [self = shared_from_this()](Status s) {
        {
            std::lock_guard lock(self->m_mutex);
            self->m_run.slept = bool(s);
            if (!s) {
                const std::string why =
                    "could not put the sandbox back to sleep: " + s.error().message;
                self->m_run.error =
                    self->m_run.error.empty() ? why : self->m_run.error + "; " + why;
            }
        }
        self->end();
    });
}

void ScheduleRun::end()
{
    store::ScheduleRunRecord r;
    {
        std::lock_guard lock(m_mutex);
        m_run.endedAtMs = std::max(nowMs(), m_run.startedAtMs);
        m_run.output = m_output.text();
        r = m_run;
    }
    if (Status s = m_store.updateRun(r); !s)
        log::warn(label() + ": run " + r.id + " not recorded: " + s.error().message);
    const int64_t ms = r.endedAtMs - r.startedAtMs;
    std::string text = label() + ": run " + r.id + " " + r.status;
    if (r.exitCode && r.status != "succeeded")
        text += ", exit code " + std::to_string(*r.exitCode);
    text += " after " + runDurationText(ms);
    if (!r.error.empty())
        text += " (" + r.error + ")";
    if (r.slept)
        text += "; the sandbox sleeps again";
    m_sandboxes.logs().append(r.sandboxId, r.status == "succeeded" ? "info" : "warn", "schedule",
                              text);
    nlohmann::json entry = {{"scheduleId", r.scheduleId},
                            {"runId", r.id},
                            {"command", m_schedule.command},
                            {"status", r.status},
                            {"woke", r.woke},
                            {"slept", r.slept},
                            {"start", isoUtc(r.startedAtMs)},
                            {"end", isoUtc(r.endedAtMs)},
                            {"durationMs", ms},
                            {"output", r.output}};
    if (!m_schedule.name.empty())
        entry["name"] = m_schedule.name;
    if (r.exitCode)
        entry["exitCode"] = *r.exitCode;
    if (!r.error.empty())
        entry["error"] = r.error;
    m_sandboxes.recordActivity(r.sandboxId, "scheduleRun", std::move(entry));
    m_ended(r);
}

} // namespace lizard::sandboxes
