#pragma once
// The activity log of every sandbox (a lizard-local extension): what was run, written and
// done to it, in order. One append-only JSON-lines file per sandbox, in the sandbox's own
// directory (<dataDir>/sandboxes/<id>/activity.jsonl), so it survives a restart of
// lizard-local and goes away with the sandbox. record() only queues: one writer thread
// numbers the entries, appends them and tells the followers, so the exec path never waits
// on the disk.

#include "sandboxes/runnerrequests.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

namespace lizard::sandboxes {

class ActivityLog
{
public:
    static constexpr uint64_t kDefaultMaxBytes = 64ull << 20;
    static constexpr uint64_t kMinMaxBytes = 16ull << 10;

    // `sandboxesDir`: <dataDir>/sandboxes. `maxBytes`: the bound of one sandbox's file.
    ActivityLog(std::string sandboxesDir, uint64_t maxBytes);
    ~ActivityLog(); // writes what is queued, then stops the writer

    // Queues an entry: `entry` has "kind" and its fields; "seq" and "time" are added here.
    // Entries of one sandbox keep the order of their record() calls.
    void record(const std::string& sandboxId, nlohmann::json entry);
    // Waits until everything queued so far is on disk (tests, shutdown).
    void flush();

    // Lines (JSON objects, no newline) with seq > since, at most `limit`, oldest first.
    std::vector<std::string> read(const std::string& sandboxId, uint64_t since, size_t limit);

    // A follower gets each line once it is on disk (on the writer thread: post it on).
    // The line is shared, as many followers may get it.
    using Follower = std::function<void(std::shared_ptr<const std::string> line, uint64_t seq)>;
    uint64_t follow(const std::string& sandboxId, Follower fn);
    void unfollow(const std::string& sandboxId, uint64_t token);

    uint64_t maxBytes() const { return m_maxBytes; }
    // Serve-mode run requests on their way to the runner (runnerrequests.h).
    RunnerRequests& runnerRequests() { return m_requests; }
    std::string pathOf(const std::string& sandboxId) const;

private:
    struct Pending
    {
        std::string sandboxId;
        nlohmann::json entry;
        int64_t timeMs;
    };
    struct SandboxState
    {
        bool loaded = false;
        uint64_t lastSeq = 0;
        uint64_t size = 0;
        std::map<uint64_t, Follower> followers;
    };

    void run();
    void write(Pending& p);
    void load(const std::string& sandboxId, SandboxState& st);
    // Drops the oldest entries so that `incoming` more bytes fit, with a marker entry.
    void compact(const std::string& sandboxId, SandboxState& st, uint64_t incoming);

    const std::string m_dir;
    const uint64_t m_maxBytes;

    std::mutex m_queueMutex;
    std::condition_variable m_queueCv;
    std::condition_variable m_idleCv;
    std::deque<Pending> m_queue;
    bool m_busy = false;
    bool m_stop = false;
    int m_flushing = 0; // flush() callers waiting
    static constexpr std::chrono::milliseconds kBatchWindow{20};

    std::mutex m_stateMutex; // m_states and the followers; the writer holds it per entry
    std::map<std::string, SandboxState> m_states;
    uint64_t m_nextToken = 1;

    RunnerRequests m_requests;
    std::thread m_thread;
};

} // namespace lizard::sandboxes
