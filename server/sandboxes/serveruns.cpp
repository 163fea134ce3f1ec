#include "sandboxes/serveruns.h"

#include "common/timeutil.h"
#include "sandboxes/activitylog.h"

namespace lizard::sandboxes {

ServeRuns::ServeRuns(ActivityLog* log, std::string sandboxId, std::string user)
    : m_log(log), m_sandboxId(std::move(sandboxId)), m_user(std::move(user))
{
}

void ServeRuns::feed(std::string_view chunk)
{
    m_lines.feed(chunk, [this](std::string_view text) { line(text); });
}

void ServeRuns::line(std::string_view text)
{
    auto ev = nlohmann::json::parse(text, nullptr, false);
    if (!ev.is_object())
        return;
    const auto req = ev.find("req");
    if (req == ev.end() || !req->is_string()) {
        if (ev.value("type", std::string()) == "ready" && ev.contains("inbox") &&
            ev["inbox"].is_string())
            m_inbox = ev["inbox"].get<std::string>();
        return;
    }
    const std::string id = req->get<std::string>();
    auto it = m_runs.find(id);
    if (it == m_runs.end()) {
        auto noted = m_log->runnerRequests().take(m_sandboxId, m_inbox, id);
        if (!noted)
            return; // not a run, or not written through the files API
        Run run;
        run.startMs = noted->value("startMs", nowMs());
        noted->erase("startMs");
        run.entry = std::move(*noted);
        run.entry["user"] = m_user;
        it = m_runs.emplace(id, std::move(run)).first;
    }
    const std::string type = it->second.events.add(std::move(ev), text.size());
    if (type == "done" || type == "fatal") {
        nlohmann::json fields = nlohmann::json::object();
        if (type == "fatal")
            fields["error"] = it->second.events.lastMessage();
        record(it->second, std::move(fields));
        m_runs.erase(it);
    }
}

void ServeRuns::finish()
{
    for (auto& [id, run] : m_runs)
        record(run, {{"cancelled", true}});
    m_runs.clear();
}

void ServeRuns::record(Run& run, nlohmann::json fields)
{
    const int64_t end = nowMs();
    nlohmann::json entry = std::move(run.entry);
    entry["start"] = isoUtc(run.startMs);
    entry["end"] = isoUtc(end);
    entry["durationMs"] = end - run.startMs;
    entry["via"] = "serve";
    for (auto& [k, v] : fields.items())
        entry[k] = v;
    run.events.finish();
    entry["events"] = run.events.take();
    if (run.events.truncated())
        entry["eventsTruncated"] = true;
    m_log->record(m_sandboxId, std::move(entry));
}

} // namespace lizard::sandboxes
