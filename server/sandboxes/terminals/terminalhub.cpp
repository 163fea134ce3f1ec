#include "sandboxes/terminals/terminalhub.h"

#include "common/crypto.h"
#include "common/timeutil.h"
#include "sandboxes/activitylog.h"

#include <algorithm>

namespace lizard::sandboxes {

TerminalHub::TerminalHub(boost::asio::any_io_executor ex) : m_ex(std::move(ex)) {}

void TerminalHub::record(const std::string& sandboxId, nlohmann::json fields)
{
    if (m_activity == nullptr)
        return;
    // That a terminal opened and closed, and whose key did it; never what was typed or shown.
    fields["kind"] = "terminal";
    m_activity->record(sandboxId, std::move(fields));
}

void TerminalHub::create(const std::string& sandboxId, const std::string& agentSocket,
                         TerminalRequest request, std::function<void(Result<TerminalInfo>)> done)
{
    {
        std::lock_guard lock(m_mutex);
        auto& st = m_sandboxes[sandboxId];
        const int runningNow =
            int(std::count_if(st.entries.begin(), st.entries.end(),
                              [](const Entry& e) { return e.session->info().running; }));
        if (runningNow + st.starting >= kMaxRunningPerSandbox)
            return done(Error{ErrorKind::LimitReached, "TOO_MANY_TERMINALS",
                              "this sandbox has " + std::to_string(kMaxRunningPerSandbox) +
                                  " terminals running, the most it may have; close one first"});
        ++st.starting;
    }
    nlohmann::json req{{"argv", request.argv}, {"env", request.env},   {"user", request.user},
                       {"cwd", request.cwd},   {"cols", request.cols}, {"rows", request.rows}};
    runtime::AgentClient agent(m_ex, agentSocket);
    agent.openTerminal(
        std::move(req), [this, sandboxId, request = std::move(request),
                         done = std::move(done)](Result<runtime::DescriptorReply> handoff) mutable {
            if (!handoff) {
                std::lock_guard lock(m_mutex);
                --m_sandboxes[sandboxId].starting;
                return done(handoff.error());
            }
            TerminalInfo info;
            info.id = "t-" + randomLowerAlnum(12);
            info.sandboxId = sandboxId;
            info.name = request.name;
            info.argv = request.argv;
            if (handoff->reply.contains("argv") && handoff->reply["argv"].is_array())
                info.argv = handoff->reply["argv"].get<std::vector<std::string>>();
            info.user = request.user;
            info.cwd = handoff->reply.value("cwd", request.cwd);
            info.tty = handoff->reply.value("tty", std::string());
            info.pid = handoff->reply.value("pid", 0);
            info.cols = request.cols;
            info.rows = request.rows;
            info.createdBy = request.createdBy;
            info.createdAtMs = nowMs();
            auto session = std::make_shared<TerminalSession>(m_ex, info, std::move(*handoff));
            {
                std::lock_guard lock(m_mutex);
                auto& st = m_sandboxes[sandboxId];
                --st.starting;
                st.entries.push_back({session});
                trimEnded(st);
            }
            nlohmann::json command = info.argv;
            record(sandboxId, {{"event", "opened"},
                               {"terminalId", info.id},
                               {"by", info.createdBy},
                               {"user", info.user},
                               {"command", command}});
            session->start([this, sandboxId](const TerminalInfo& ended) {
                nlohmann::json fields{{"event", "closed"},
                                      {"terminalId", ended.id},
                                      {"reason", ended.endReason},
                                      {"durationMs", ended.endedAtMs - ended.createdAtMs}};
                if (ended.exitCode)
                    fields["exitCode"] = *ended.exitCode;
                if (!ended.closedBy.empty())
                    fields["by"] = ended.closedBy;
                record(sandboxId, std::move(fields));
            });
            done(info);
        });
}

void TerminalHub::trimEnded(SandboxTerminals& st)
{
    int ended = 0;
    for (const auto& e : st.entries)
        ended += e.session->info().running ? 0 : 1;
    for (auto it = st.entries.begin(); ended > kMaxEndedPerSandbox && it != st.entries.end();) {
        if (!it->session->info().running) {
            it = st.entries.erase(it);
            --ended;
        } else {
            ++it;
        }
    }
}

std::vector<TerminalInfo> TerminalHub::list(const std::string& sandboxId) const
{
    std::vector<TerminalInfo> out;
    std::lock_guard lock(m_mutex);
    auto it = m_sandboxes.find(sandboxId);
    if (it == m_sandboxes.end())
        return out;
    for (const auto& e : it->second.entries)
        out.push_back(e.session->info());
    return out;
}

std::shared_ptr<TerminalSession> TerminalHub::find(const std::string& sandboxId,
                                                   const std::string& terminalId) const
{
    std::lock_guard lock(m_mutex);
    auto it = m_sandboxes.find(sandboxId);
    if (it == m_sandboxes.end())
        return nullptr;
    for (const auto& e : it->second.entries)
        if (e.session->info().id == terminalId)
            return e.session;
    return nullptr;
}

Status TerminalHub::close(const std::string& sandboxId, const std::string& terminalId,
                          const std::string& by)
{
    std::shared_ptr<TerminalSession> session;
    {
        std::lock_guard lock(m_mutex);
        auto it = m_sandboxes.find(sandboxId);
        if (it != m_sandboxes.end()) {
            auto& entries = it->second.entries;
            auto e = std::find_if(entries.begin(), entries.end(), [&](const Entry& x) {
                return x.session->info().id == terminalId;
            });
            if (e != entries.end()) {
                session = e->session;
                entries.erase(e);
            }
        }
    }
    if (!session)
        return Error{ErrorKind::NotFound, "NOT_FOUND", "no terminal " + terminalId};
    session->close(by);
    return okStatus();
}

int TerminalHub::running(const std::string& sandboxId) const
{
    int n = 0;
    for (const auto& info : list(sandboxId))
        n += info.running ? 1 : 0;
    return n;
}

void TerminalHub::forget(const std::string& sandboxId)
{
    std::vector<Entry> gone;
    {
        std::lock_guard lock(m_mutex);
        auto it = m_sandboxes.find(sandboxId);
        if (it == m_sandboxes.end())
            return;
        gone = std::move(it->second.entries);
        m_sandboxes.erase(it);
    }
    for (auto& e : gone)
        e.session->sandboxEnded();
}

} // namespace lizard::sandboxes
