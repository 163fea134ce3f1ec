#include "sandboxes/templates/templatebuild.h"

#include "common/log.h"
#include "common/timeutil.h"
#include "runtime/agentclient.h"
#include "sandboxes/sandboxmanager.h"
#include "sandboxes/snapshotservice.h"
#include "sandboxes/templates/templatebuilder.h"

#include <boost/asio/post.hpp>

namespace lizard::sandboxes {

namespace {

std::string seconds(int64_t ms)
{
    return std::to_string(ms / 1000) + "." + std::to_string(ms % 1000 / 100) + " s";
}

} // namespace

TemplateBuild::TemplateBuild(TemplateBuilder& builder, SandboxManager& sandboxes,
                             boost::asio::any_io_executor io, BuildPlan plan,
                             store::TemplateBuildRecord record, std::shared_ptr<BuildLog> log)
    : m_builder(builder), m_sandboxes(sandboxes), m_io(std::move(io)), m_plan(std::move(plan)),
      m_log(std::move(log)), m_record(std::move(record))
{
}

store::TemplateBuildRecord TemplateBuild::record() const
{
    std::lock_guard lock(m_mutex);
    return m_record;
}

bool TemplateBuild::cancelled() const
{
    std::lock_guard lock(m_mutex);
    return !m_cancelled.empty();
}

int64_t TemplateBuild::remainingMs() const
{
    std::lock_guard lock(m_mutex);
    return m_record.startedAtMs + m_plan.timeoutMs - nowMs();
}

void TemplateBuild::start()
{
    const auto& steps = m_plan.recipe.steps;
    const int n = int(steps.size());
    m_log->line("build " + m_record.id + " of template " + m_plan.name + ": from " +
                m_plan.recipe.from + ", " + std::to_string(n) + " step" + (n == 1 ? "" : "s"));
    // The last step whose layer the cache has: everything before it is as it was built then.
    int cached = 0;
    std::string lastSnapshot = m_plan.fromSnapshot;
    int64_t lastSize = 0;
    const auto layers = m_builder.layers();
    for (int i = n - 1; i >= 0 && cached == 0; --i) {
        for (const auto& l : layers) {
            if (l.key != m_plan.keys[size_t(i)])
                continue;
            const auto snap = m_builder.store().snapshot(l.snapshotId);
            if (snap && snap->status == "ready") {
                cached = i + 1;
                lastSnapshot = l.snapshotId;
                lastSize = snap->sizeBytes;
            }
        }
    }
    for (int i = 0; i < cached; ++i) {
        m_builder.store().templates().touchLayer(m_plan.keys[size_t(i)], nowMs());
        m_log->line("step " + std::to_string(i + 1) + "/" + std::to_string(n) + ": " +
                    stepLabel(steps[size_t(i)]) + ": cached");
    }
    {
        std::lock_guard lock(m_mutex);
        m_record.cachedSteps = cached;
    }
    m_builder.store().templates().updateBuild(record());
    if (cached == n) {
        m_log->line(n == 0 ? "no steps: the template is its base with the recipe's env"
                           : "every step is cached");
        return succeed(lastSnapshot, lastSize);
    }
    createSandbox(cached, lastSnapshot);
}

void TemplateBuild::createSandbox(int first, const std::string& filesFrom)
{
    if (!filesFrom.empty()) {
        if (auto held = m_sandboxes.snapshots().acquire(filesFrom); !held)
            return fail(first, std::nullopt,
                        "its cached layer cannot be read: " + held.error().message);
    }
    CreateSandboxParams p = m_builder.buildSandboxParams();
    p.projectId = m_plan.projectId;
    p.templateName = m_plan.base;
    p.filesFrom = filesFrom;
    p.timeoutMs = std::max<int64_t>(remainingMs(), 1000) + 60000;
    p.metadata = {{"lizard.templateBuild", m_record.id}, {"lizard.template", m_plan.name}};
    m_log->line("starting the build sandbox (" + m_plan.base +
                (filesFrom.empty() ? std::string() : ", from " + filesFrom) + ")");
    m_sandboxes.create(
        p, [self = shared_from_this(), first, filesFrom](Result<store::SandboxPtr> sb) {
            if (!filesFrom.empty())
                self->m_sandboxes.snapshots().release(filesFrom);
            if (!sb)
                return self->fail(first, std::nullopt,
                                  "the build sandbox did not start: " + sb.error().message);
            {
                std::lock_guard lock(self->m_mutex);
                self->m_sandboxId = (*sb)->id;
                self->m_agent =
                    std::make_shared<runtime::AgentClient>(self->m_io, (*sb)->handle.socketPath);
            }
            self->m_log->line("build sandbox " + (*sb)->id + " is running");
            if (self->cancelled())
                return self->fail(first, std::nullopt, "");
            self->runStep(first);
        });
}

std::vector<std::string> TemplateBuild::stepArgv(const RecipeStep& step) const
{
    std::vector<std::string> argv;
    switch (step.kind) {
    case RecipeStep::Kind::Apt:
        argv = {"/bin/bash", "-ec",
                "export DEBIAN_FRONTEND=noninteractive; apt-get update -q; "
                "apt-get install -y -q --no-install-recommends \"$@\"; apt-get clean; "
                "rm -rf /var/lib/apt/lists/*",
                "apt"};
        break;
    case RecipeStep::Kind::Pip:
        argv = {"/bin/bash", "-ec",
                "python3 -m pip install --no-cache-dir --break-system-packages "
                "--root-user-action=ignore --disable-pip-version-check \"$@\"",
                "pip"};
        break;
    case RecipeStep::Kind::Npm:
        argv = {"/bin/bash", "-ec",
                "npm install -g --no-fund --no-audit --no-update-notifier \"$@\"", "npm"};
        break;
    case RecipeStep::Kind::Run:
        return {"/bin/bash", "-ec", step.items.front()};
    case RecipeStep::Kind::Files:
        return {};
    }
    argv.insert(argv.end(), step.items.begin(), step.items.end());
    return argv;
}

void TemplateBuild::runStep(int index)
{
    const auto& steps = m_plan.recipe.steps;
    if (index >= int(steps.size())) {
        std::string last;
        for (const auto& l : m_builder.layers())
            if (l.key == m_plan.keys.back())
                last = l.snapshotId;
        const auto snap = m_builder.store().snapshot(last);
        return succeed(last, snap ? snap->sizeBytes : 0);
    }
    if (cancelled())
        return fail(index, std::nullopt, "");
    const int64_t left = remainingMs();
    if (left <= 0)
        return fail(index, std::nullopt,
                    "the build reached its time limit of " + seconds(m_plan.timeoutMs));
    const RecipeStep& step = steps[size_t(index)];
    m_log->line("step " + std::to_string(index + 1) + "/" + std::to_string(steps.size()) + ": " +
                stepLabel(step));
    if (step.kind == RecipeStep::Kind::Files)
        return writeFiles(index, 0);
    runtime::ExecRequest req;
    req.argv = stepArgv(step);
    req.env = step.env;
    req.cwd = step.workdir;
    req.user = "root";
    req.timeoutMs = int(std::min<int64_t>(left, INT32_MAX));
    runtime::ExecHandlers h;
    const auto self = shared_from_this();
    h.onStarted = [](int) {};
    h.onOutput = [self](runtime::OutStream, std::string_view chunk, std::function<void()> resume) {
        self->m_log->output(chunk);
        resume();
    };
    h.onExit = [self, index](int exitCode, bool timedOut) {
        self->stepEnded(index, exitCode, timedOut);
    };
    h.onError = [self, index](const Error& e) {
        self->fail(index, std::nullopt, self->cancelled() ? "" : e.code + ": " + e.message);
    };
    std::shared_ptr<runtime::AgentClient> agent;
    {
        std::lock_guard lock(m_mutex);
        agent = m_agent;
    }
    auto handle = agent->exec(std::move(req), std::move(h));
    std::lock_guard lock(m_mutex);
    m_exec = std::move(handle);
}

void TemplateBuild::writeFiles(int index, size_t file)
{
    const RecipeStep& step = m_plan.recipe.steps[size_t(index)];
    if (file >= step.files.size())
        return snapshotStep(index);
    const auto& [src, dst] = step.files[file];
    const auto it = m_plan.files.find(src);
    if (it == m_plan.files.end()) // plan() checked every source was sent
        return fail(index, std::nullopt, "the file " + src + " was not sent with the build");
    m_log->line("  " + src + " → " + dst + " (" + std::to_string(it->second.size()) + " bytes)");
    std::shared_ptr<runtime::AgentClient> agent;
    {
        std::lock_guard lock(m_mutex);
        agent = m_agent;
    }
    agent->writeFile(dst, "root", it->second,
                     [self = shared_from_this(), index, file, dst](Status s) {
                         if (!s)
                             return self->fail(index, std::nullopt,
                                               "could not write " + dst + ": " + s.error().message);
                         self->writeFiles(index, file + 1);
                     });
}

void TemplateBuild::stepEnded(int index, int exitCode, bool timedOut)
{
    m_log->flush();
    if (timedOut)
        return fail(index, exitCode,
                    "the build reached its time limit of " + seconds(m_plan.timeoutMs));
    if (exitCode != 0)
        return fail(index, exitCode,
                    stepLabel(m_plan.recipe.steps[size_t(index)]) + " failed with exit code " +
                        std::to_string(exitCode));
    snapshotStep(index);
}

void TemplateBuild::snapshotStep(int index)
{
    std::string sandboxId;
    {
        std::lock_guard lock(m_mutex);
        sandboxId = m_sandboxId;
    }
    const store::SandboxPtr sb = m_sandboxes.running(sandboxId);
    if (!sb)
        return fail(index, std::nullopt, "the build sandbox " + sandboxId + " ended");
    const RecipeStep& step = m_plan.recipe.steps[size_t(index)];
    const std::string key = m_plan.keys[size_t(index)];
    const std::string name =
        "template " + m_plan.name + ": " + stepLabel(step) + " · " + key.substr(0, 12);
    const int64_t started = nowMs();
    m_sandboxes.snapshots().take(
        sb, name, m_io,
        [self = shared_from_this(), index, key,
         started](Result<SnapshotService::SnapshotPtr> snap) {
            if (!snap)
                return self->fail(index, std::nullopt,
                                  "the layer could not be kept: " + snap.error().message);
            const RecipeStep& s = self->m_plan.recipe.steps[size_t(index)];
            self->m_builder.layerBuilt(key, **snap, self->m_plan.name, stepLabel(s));
            self->m_log->line("  layer " + (*snap)->id + ": " +
                              std::to_string((*snap)->sizeBytes >> 10) + " KiB in " +
                              std::to_string(nowMs() - started) + " ms");
            self->runStep(index + 1);
        });
}

void TemplateBuild::succeed(const std::string& snapshotId, int64_t sizeBytes)
{
    const int version = m_builder.versionBuilt(m_plan, m_record.id, snapshotId, sizeBytes);
    store::TemplateBuildRecord r = record();
    r.status = "succeeded";
    r.version = version;
    if (version == 0) {
        r.error = "nothing changed: the latest version is the same";
        m_log->line("nothing changed: the latest version of " + m_plan.name + " is the same");
    } else {
        m_log->line("built " + m_plan.name + ":" + std::to_string(version));
    }
    end(std::move(r));
}

void TemplateBuild::fail(int step, std::optional<int> exitCode, std::string error)
{
    store::TemplateBuildRecord r = record();
    {
        std::lock_guard lock(m_mutex);
        if (!m_cancelled.empty()) {
            r.status = "interrupted";
            error = m_cancelled;
        } else {
            r.status = "failed";
        }
    }
    m_log->flush();
    r.failedStep = step;
    r.exitCode = exitCode;
    r.error = error;
    m_log->line((r.status == "failed" ? "build failed: " : "build interrupted: ") + error +
                "; the template's versions are as they were");
    end(std::move(r));
}

void TemplateBuild::cancel(const std::string& why)
{
    std::shared_ptr<runtime::Cancel> exec;
    {
        std::lock_guard lock(m_mutex);
        if (m_ended || !m_cancelled.empty())
            return;
        m_cancelled = why;
        exec = m_exec;
    }
    if (exec)
        exec->cancel(); // the exec reports an error: fail() ends the build "interrupted"
}

void TemplateBuild::end(store::TemplateBuildRecord r)
{
    std::string sandboxId;
    {
        std::lock_guard lock(m_mutex);
        if (m_ended)
            return;
        m_ended = true;
        r.endedAtMs = std::max(nowMs(), r.startedAtMs);
        m_record = r;
        sandboxId = m_sandboxId;
        m_exec.reset();
    }
    if (Status s = m_builder.store().templates().updateBuild(r); !s)
        log::warn("template build " + r.id + ": not recorded: " + s.error().message);
    log::info("template build " + r.id + " of " + r.name + ": " + r.status + " after " +
              seconds(r.endedAtMs - r.startedAtMs) +
              (r.error.empty() ? std::string() : " (" + r.error + ")"));
    // Ended for its clients once its record is final: the next build of the template may start
    // while this one's sandbox is still being taken down.
    m_builder.buildEnded(r.id, r.name);
    m_log->finish();
    if (!sandboxId.empty())
        m_sandboxes.kill(sandboxId, "its template build ended", [](Status) {});
}

} // namespace lizard::sandboxes
