#include "sandboxes/execactivity.h"

#include "common/base64.h"
#include "common/timeutil.h"
#include "sandboxes/activitylog.h"
#include "sandboxes/serveruns.h"

namespace lizard::sandboxes {

namespace {

nlohmann::json envNames(const std::map<std::string, std::string>& env)
{
    nlohmann::json names = nlohmann::json::array();
    for (const auto& [name, value] : env)
        names.push_back(name);
    return names;
}

// The runner travels as its whole source in argv: the log names it instead of repeating it.
std::string runnerPlaceholder(size_t bytes)
{
    return "<code runner source, " + std::to_string(bytes) + " bytes>";
}

} // namespace

std::optional<nlohmann::json> runnerInvocation(const std::vector<std::string>& argv)
{
    if (argv.size() != 4 || argv[1] != "-c" || argv[0].find("python") == std::string::npos)
        return std::nullopt;
    // Both runners say what they are in their first line ("# Lizard code runner: ..." for the
    // SDK's, "# lizard-desktop code runner: ..." for ours).
    const std::string_view firstLine = std::string_view(argv[2]).substr(0, argv[2].find('\n'));
    if (firstLine.find("code runner") == std::string_view::npos)
        return std::nullopt;
    const auto decoded = base64Decode(argv[3]);
    if (!decoded)
        return std::nullopt;
    auto args = nlohmann::json::parse(*decoded, nullptr, false);
    if (!args.is_object() || !args.contains("action") || !args["action"].is_string())
        return std::nullopt;
    return args;
}

void StreamCapture::feed(std::string_view chunk)
{
    m_bytes += chunk.size();
    if (m_head.size() < kActivityCaptureBytes) {
        const size_t n = std::min(chunk.size(), kActivityCaptureBytes - m_head.size());
        m_head.append(chunk.substr(0, n));
        chunk.remove_prefix(n);
    }
    if (chunk.empty())
        return;
    if (chunk.size() >= kActivityCaptureBytes) {
        m_tail.assign(chunk.substr(chunk.size() - kActivityCaptureBytes));
        return;
    }
    m_tail.append(chunk);
    if (m_tail.size() > 2 * kActivityCaptureBytes) // amortised: one move per 64 KiB of output
        m_tail.erase(0, m_tail.size() - kActivityCaptureBytes);
}

void StreamCapture::store(nlohmann::json& entry, const std::string& name) const
{
    entry[name + "Bytes"] = m_bytes;
    entry[name + "Head"] = m_head;
    // The tail only holds what the head does not: the bytes after the first 64 KiB.
    const uint64_t after = m_bytes - m_head.size();
    if (after > 0) {
        const size_t n = size_t(std::min<uint64_t>(after, kActivityCaptureBytes));
        entry[name + "Tail"] = m_tail.substr(m_tail.size() - std::min(n, m_tail.size()));
    }
}

void RunnerEvents::feed(std::string_view chunk)
{
    m_lines.feed(chunk, [this](std::string_view text) { line(text); });
}

void RunnerEvents::finish()
{
    m_lines.finish([this](std::string_view text) { line(text); });
}

std::string RunnerEvents::lastMessage() const
{
    if (!m_events.empty() && m_events.back().contains("message") &&
        m_events.back()["message"].is_string())
        return m_events.back()["message"].get<std::string>();
    return "the code runner failed";
}

void RunnerEvents::line(std::string_view text)
{
    add(nlohmann::json::parse(text, nullptr, false), text.size());
}

std::string RunnerEvents::add(nlohmann::json ev, size_t size)
{
    if (!ev.is_object())
        return {};
    if (ev.value("type", std::string()) == "part") {
        if (m_part.size() < kActivityEventBytes)
            m_part += ev.value("data", std::string());
        if (!ev.value("end", false))
            return {};
        ev = nlohmann::json::parse(m_part, nullptr, false);
        m_part.clear();
        if (!ev.is_object())
            return {};
    }
    std::string type = ev.value("type", std::string());
    if (m_bytes + size > kActivityEventBytes) {
        m_truncated = true;
        return type;
    }
    m_bytes += size;
    m_events.push_back(std::move(ev));
    return type;
}

std::shared_ptr<ExecActivity> ExecActivity::start(ActivityLog* log, const std::string& sandboxId,
                                                  const runtime::ExecRequest& request,
                                                  bool housekeeping)
{
    if (log == nullptr)
        return nullptr;
    nlohmann::json entry = {{"kind", "exec"},
                            {"cwd", request.cwd},
                            {"user", request.user},
                            {"envNames", envNames(request.env)},
                            {"timeoutMs", request.timeoutMs}};
    auto runner = runnerInvocation(request.argv);
    if (runner) {
        entry["argv"] = {request.argv[0], "-c", runnerPlaceholder(request.argv[2].size()),
                         "<runner arguments>"};
    } else {
        entry["argv"] = request.argv;
        if (request.argv.size() == 3 && request.argv[0] == "/bin/bash" && request.argv[1] == "-c")
            entry["command"] = request.argv[2];
    }
    if (housekeeping) {
        entry["housekeeping"] = true;
        runner.reset();
    }
    auto activity = std::shared_ptr<ExecActivity>(
        new ExecActivity(log, sandboxId, std::move(entry), std::move(runner)));
    activity->m_keepOutput = !housekeeping;
    return activity;
}

ExecActivity::ExecActivity(ActivityLog* log, std::string sandboxId, nlohmann::json entry,
                           std::optional<nlohmann::json> runner)
    : m_log(log), m_sandboxId(std::move(sandboxId)), m_entry(std::move(entry)), m_startMs(nowMs())
{
    if (!runner)
        return;
    nlohmann::json& args = *runner;
    const std::string action = args.value("action", std::string());
    // Per-run env values may be secrets: only their names are kept, as for exec.
    nlohmann::json names = nlohmann::json::array();
    if (const auto it = args.find("envs"); it != args.end() && it->is_object())
        for (const auto& [name, value] : it->items())
            names.push_back(name);
    args.erase("envs");
    if (action == "run") {
        m_runCode = true;
        nlohmann::json run = {{"kind", "runCode"}, {"envNames", names}};
        for (const char* field : {"context", "language", "code", "codeFile", "timeout", "cwd"})
            if (args.contains(field))
                run[field] = args[field];
        if (!run.contains("context") && !run.contains("language"))
            run["language"] = "python"; // the runner's default
        run["user"] = m_entry["user"];
        m_entry = std::move(run);
    } else {
        args.erase("code"); // complete/inspect carry a cell's text; it is not a run
        m_entry["runner"] = args;
        if (action == "serve")
            m_serve = std::make_unique<ServeRuns>(m_log, m_sandboxId,
                                                  m_entry.value("user", std::string()));
    }
}

void ExecActivity::output(runtime::OutStream stream, std::string_view chunk)
{
    if (stream == runtime::OutStream::Stdout) {
        if (m_runCode)
            m_events.feed(chunk);
        if (m_serve)
            m_serve->feed(chunk);
        m_stdout.feed(chunk);
    } else {
        m_stderr.feed(chunk);
    }
}

void ExecActivity::exited(int exitCode, bool timedOut)
{
    nlohmann::json f = {{"exitCode", exitCode}};
    if (timedOut)
        f["timedOut"] = true;
    finish(std::move(f));
}

void ExecActivity::failed(const std::string& code, const std::string& message)
{
    finish({{"error", code}, {"message", message}});
}

ExecActivity::~ExecActivity()
{
    if (!m_done)
        finish({{"cancelled", true}});
}

void ExecActivity::finish(nlohmann::json fields)
{
    if (m_done)
        return;
    m_done = true;
    const int64_t end = nowMs();
    nlohmann::json entry = std::move(m_entry);
    entry["start"] = isoUtc(m_startMs);
    entry["end"] = isoUtc(end);
    entry["durationMs"] = end - m_startMs;
    for (auto& [k, v] : fields.items())
        entry[k] = v;
    if (m_runCode) {
        m_events.finish();
        entry["events"] = m_events.take();
        if (m_events.truncated())
            entry["eventsTruncated"] = true;
        // The events are the stdout: its raw copy would only repeat them.
        m_stdout.store(entry, "stdout");
        entry.erase("stdoutHead");
        entry.erase("stdoutTail");
    } else {
        m_stdout.store(entry, "stdout");
    }
    if (m_serve) {
        // Its runs are recorded one by one; the rest of its output is the app's own traffic.
        m_serve->finish();
        entry.erase("stdoutHead");
        entry.erase("stdoutTail");
    }
    m_stderr.store(entry, "stderr");
    if (!m_keepOutput)
        for (const char* field : {"stdoutHead", "stdoutTail", "stderrHead", "stderrTail"})
            entry.erase(field);
    m_log->record(m_sandboxId, std::move(entry));
}

} // namespace lizard::sandboxes
