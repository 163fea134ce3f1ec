#include "logs/systemlog.h"

#include "common/timeutil.h"

#include <sys/stat.h>

namespace lizard::logs {

void SystemLog::setDataDir(std::string dir)
{
    std::lock_guard lock(m_mutex);
    m_dataDir = std::move(dir);
}

void SystemLog::setTap(Tap tap)
{
    std::lock_guard lock(m_mutex);
    m_tap = std::move(tap);
}

SystemLog::Sandbox& SystemLog::stateLocked(const std::string& id)
{
    auto [it, inserted] = m_sandboxes.try_emplace(id);
    if (inserted) // first use since lizard-local started: go on after what is on disk
        it->second.lastSeq = LogFile(dirOf(id)).lastSeq();
    return it->second;
}

void SystemLog::append(const std::string& sandboxId, std::string level, std::string source,
                       std::string message, int64_t ts)
{
    std::lock_guard lock(m_mutex);
    if (m_dataDir.empty())
        return;
    Sandbox& sb = stateLocked(sandboxId);
    LogLine line{sb.lastSeq + 1, ts > 0 ? ts : nowMs(), std::move(level), std::move(source),
                 std::move(message)};
    if (!LogFile(dirOf(sandboxId)).append(line)) {
        if (sb.listeners.empty()) // the sandbox's directory is gone: so is its log
            m_sandboxes.erase(sandboxId);
        return;
    }
    sb.lastSeq = line.seq;
    if (m_tap)
        m_tap(sandboxId, line);
    for (auto& [token, listener] : sb.listeners)
        listener(&line);
}

SystemLog::Subscription SystemLog::subscribe(const std::string& sandboxId, size_t tailLines,
                                             Listener listener)
{
    std::lock_guard lock(m_mutex);
    struct stat st
    {
    };
    if (m_dataDir.empty() || ::stat(dirOf(sandboxId).c_str(), &st) != 0)
        return {};
    Sandbox& sb = stateLocked(sandboxId);
    Subscription out;
    out.token = m_nextToken++;
    out.tail = LogFile(dirOf(sandboxId)).tail(tailLines);
    sb.listeners.emplace(out.token, std::move(listener));
    return out;
}

void SystemLog::unsubscribe(const std::string& sandboxId, uint64_t token)
{
    std::lock_guard lock(m_mutex);
    if (auto it = m_sandboxes.find(sandboxId); it != m_sandboxes.end())
        it->second.listeners.erase(token);
}

void SystemLog::end(const std::string& sandboxId)
{
    std::lock_guard lock(m_mutex);
    auto it = m_sandboxes.find(sandboxId);
    if (it == m_sandboxes.end())
        return;
    for (auto& [token, listener] : it->second.listeners)
        listener(nullptr);
    m_sandboxes.erase(it);
}

} // namespace lizard::logs
