#include "sandboxes/activitylog.h"

#include "common/log.h"
#include "common/timeutil.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace lizard::sandboxes {

namespace {

constexpr std::string_view kActivitySeqPrefix = "{\"seq\":";

// The seq of a stored line ({"seq":N,...}), 0 when it has none.
uint64_t activitySeqOf(std::string_view line)
{
    if (line.substr(0, kActivitySeqPrefix.size()) != kActivitySeqPrefix)
        return 0;
    uint64_t v = 0;
    const char* b = line.data() + kActivitySeqPrefix.size();
    std::from_chars(b, line.data() + line.size(), v);
    return v;
}

bool activityReadAll(const std::string& path, std::string& out)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    char buf[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        out.append(buf, size_t(n));
    }
    ::close(fd);
    return true;
}

bool activityWriteAll(int fd, std::string_view data)
{
    while (!data.empty()) {
        const ssize_t n = ::write(fd, data.data(), data.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data.remove_prefix(size_t(n));
    }
    return true;
}

std::string activityLine(uint64_t seq, int64_t timeMs, const nlohmann::json& entry)
{
    std::string line = "{\"seq\":" + std::to_string(seq) + ",\"time\":\"" + isoUtc(timeMs) + "\"";
    // Invalid UTF-8 in captured output must not make the whole entry unwritable.
    const std::string body = entry.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (body.size() > 2)
        line += "," + body.substr(1);
    else
        line += "}";
    return line;
}

// An entry too big for the bound keeps its small fields and names the others.
nlohmann::json activityShrink(nlohmann::json entry, size_t fieldMax)
{
    nlohmann::json omitted = nlohmann::json::array();
    for (auto it = entry.begin(); it != entry.end();) {
        if (it.key() != "kind" &&
            it->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).size() > fieldMax) {
            omitted.push_back(it.key());
            it = entry.erase(it);
        } else {
            ++it;
        }
    }
    entry["omitted"] = omitted;
    return entry;
}

} // namespace

ActivityLog::ActivityLog(std::string sandboxesDir, uint64_t maxBytes)
    : m_dir(std::move(sandboxesDir)), m_maxBytes(std::max(maxBytes, kMinMaxBytes))
{
    m_thread = std::thread([this] { run(); });
}

ActivityLog::~ActivityLog()
{
    {
        std::lock_guard lk(m_queueMutex);
        m_stop = true;
    }
    m_queueCv.notify_all();
    m_thread.join();
}

std::string ActivityLog::pathOf(const std::string& sandboxId) const
{
    return m_dir + "/" + sandboxId + "/activity.jsonl";
}

void ActivityLog::record(const std::string& sandboxId, nlohmann::json entry)
{
    bool first;
    {
        std::lock_guard lk(m_queueMutex);
        first = m_queue.empty();
        m_queue.push_back(Pending{sandboxId, std::move(entry), nowMs()});
    }
    if (first) // later ones join the batch the writer is gathering: no wake-up each
        m_queueCv.notify_one();
}

void ActivityLog::flush()
{
    std::unique_lock lk(m_queueMutex);
    ++m_flushing; // no batch window while someone waits
    m_queueCv.notify_all();
    m_idleCv.wait(lk, [this] { return m_queue.empty() && !m_busy; });
    --m_flushing;
}

void ActivityLog::run()
{
    // Below the threads that answer requests: the log must never delay one.
    ::setpriority(PRIO_PROCESS, pid_t(::syscall(SYS_gettid)), 10);
    std::unique_lock lk(m_queueMutex);
    for (;;) {
        m_queueCv.wait(lk, [this] { return m_stop || !m_queue.empty(); });
        if (m_queue.empty()) // stopping, and all written
            return;
        // Gather what comes within a short window and write it in one go: an agent's burst of
        // execs costs one wake-up, not one each, and followers still see it within ~20 ms.
        if (!m_stop && !m_flushing)
            m_queueCv.wait_for(lk, kBatchWindow, [this] { return m_stop || m_flushing; });
        std::deque<Pending> batch;
        batch.swap(m_queue);
        m_busy = true;
        lk.unlock();
        for (Pending& p : batch)
            write(p);
        lk.lock();
        m_busy = false;
        if (m_queue.empty())
            m_idleCv.notify_all();
    }
}

void ActivityLog::write(Pending& p)
{
    std::lock_guard lk(m_stateMutex);
    SandboxState& st = m_states[p.sandboxId];
    if (!st.loaded)
        load(p.sandboxId, st);
    const uint64_t seq = ++st.lastSeq;
    const bool ends = p.entry.value("kind", std::string()) == "kill";
    std::string line = activityLine(seq, p.timeMs, p.entry);
    if (line.size() + 1 > m_maxBytes / 4)
        line = activityLine(seq, p.timeMs, activityShrink(std::move(p.entry), 4096));
    line += '\n';
    if (st.size + line.size() > m_maxBytes)
        compact(p.sandboxId, st, line.size());
    const std::string path = pathOf(p.sandboxId);
    // No O_CREAT of directories: a sandbox whose directory is gone has no log any more.
    const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd >= 0) {
        if (activityWriteAll(fd, line))
            st.size += line.size();
        else
            log::warn("activity log " + path + ": " + std::strerror(errno));
        ::close(fd);
    } else if (errno != ENOENT) {
        log::warn("activity log " + path + ": " + std::strerror(errno));
    }
    line.pop_back();
    auto shared = std::make_shared<const std::string>(std::move(line));
    for (auto& [token, fn] : st.followers)
        fn(shared, seq);
    if (ends) {
        // The sandbox is gone: its followers' streams end, and its state with them.
        for (auto& [token, fn] : st.followers)
            fn(nullptr, seq);
        m_states.erase(p.sandboxId);
    }
}

void ActivityLog::load(const std::string& sandboxId, SandboxState& st)
{
    st.loaded = true;
    struct stat sb
    {
    };
    const std::string path = pathOf(sandboxId);
    if (::stat(path.c_str(), &sb) != 0)
        return;
    st.size = uint64_t(sb.st_size);
    std::string all;
    if (!activityReadAll(path, all))
        return;
    // The last complete line carries the last seq.
    size_t end = all.size();
    while (end > 0 && all[end - 1] != '\n')
        --end; // an unfinished line (a crash mid-write) is not an entry
    if (end == 0)
        return;
    const size_t start = all.rfind('\n', end - 2);
    st.lastSeq =
        activitySeqOf(std::string_view(all).substr(start == std::string::npos ? 0 : start + 1));
}

void ActivityLog::compact(const std::string& sandboxId, SandboxState& st, uint64_t incoming)
{
    const std::string path = pathOf(sandboxId);
    std::string all;
    if (!activityReadAll(path, all))
        return;
    // Keep the newest entries within 3/4 of the bound, so that compactions stay rare.
    const uint64_t target =
        m_maxBytes * 3 / 4 > incoming + 512 ? m_maxBytes * 3 / 4 - incoming - 512 : 0;
    uint64_t dropped = 0;
    uint64_t throughSeq = 0;
    size_t cut = 0;
    while (cut < all.size() && all.size() - cut > target) {
        const size_t nl = all.find('\n', cut);
        const std::string_view line = std::string_view(all).substr(
            cut, nl == std::string::npos ? std::string::npos : nl - cut);
        if (line.find("\"kind\":\"dropped\"") != std::string_view::npos) {
            // An earlier marker: its count carries over into the new one.
            const auto j = nlohmann::json::parse(line, nullptr, false);
            if (j.is_object())
                dropped += j.value("count", uint64_t(0));
        } else {
            ++dropped;
        }
        throughSeq = std::max(throughSeq, activitySeqOf(line));
        cut = nl == std::string::npos ? all.size() : nl + 1;
    }
    nlohmann::json marker = {{"kind", "dropped"},
                             {"count", dropped},
                             {"throughSeq", throughSeq},
                             {"message", "the oldest entries were dropped: the log keeps at most " +
                                             std::to_string(m_maxBytes) + " bytes"}};
    std::string out = activityLine(throughSeq, nowMs(), marker) + "\n";
    out.append(all, cut, std::string::npos);
    const std::string tmp = path + ".tmp";
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    const bool ok = activityWriteAll(fd, out);
    ::close(fd);
    if (!ok || ::rename(tmp.c_str(), path.c_str()) != 0) {
        ::unlink(tmp.c_str());
        return;
    }
    st.size = out.size();
}

std::vector<std::string> ActivityLog::read(const std::string& sandboxId, uint64_t since,
                                           size_t limit)
{
    std::vector<std::string> out;
    std::string all;
    if (limit == 0 || !activityReadAll(pathOf(sandboxId), all))
        return out;
    size_t pos = 0;
    while (pos < all.size() && out.size() < limit) {
        const size_t nl = all.find('\n', pos);
        if (nl == std::string::npos)
            break; // being written
        const std::string_view line = std::string_view(all).substr(pos, nl - pos);
        if (activitySeqOf(line) > since)
            out.emplace_back(line);
        pos = nl + 1;
    }
    return out;
}

uint64_t ActivityLog::follow(const std::string& sandboxId, Follower fn)
{
    std::lock_guard lk(m_stateMutex);
    const uint64_t token = m_nextToken++;
    m_states[sandboxId].followers.emplace(token, std::move(fn));
    return token;
}

void ActivityLog::unfollow(const std::string& sandboxId, uint64_t token)
{
    std::lock_guard lk(m_stateMutex);
    if (auto it = m_states.find(sandboxId); it != m_states.end()) {
        it->second.followers.erase(token);
        if (it->second.followers.empty() && !it->second.loaded)
            m_states.erase(it);
    }
}

} // namespace lizard::sandboxes
