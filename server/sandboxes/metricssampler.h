#pragma once
// Resource metrics of every running sandbox: one thread samples them all every interval (2 s
// by default, --metrics-interval-ms) through runtime/sandboxusage.h and the runtime's disk
// figure, keeps each sandbox's series (metricsseries.h) and lifecycle marks (from its system
// log, through SystemLog's tap) in memory and in <sandbox dir>/metrics.bin (metricsfile.h),
// and tells followers (the SSE route) each sample. Paused sandboxes give no samples; their
// buckets still close. A sandbox's metrics go with it. api/DECISIONS.md, "Metrics".

#include "logs/logfile.h"
#include "sandboxes/metricsfile.h"
#include "sandboxes/metricsseries.h"

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace lizard::runtime {
class Runtime;
}
namespace lizard::store {
class Store;
}

namespace lizard::sandboxes {

class MetricsSampler
{
public:
    static constexpr int kDefaultIntervalMs = 2000;

    MetricsSampler(store::Store& store, runtime::Runtime& runtime, std::string dataDir,
                   int intervalMs = kDefaultIntervalMs);
    ~MetricsSampler();
    MetricsSampler(const MetricsSampler&) = delete;
    MetricsSampler& operator=(const MetricsSampler&) = delete;

    void start();
    void stop();
    int intervalMs() const { return m_intervalMs; }

    // A line of a sandbox's system log (SystemLog's tap, any thread): the lifecycle ones
    // become marks.
    void onLogLine(const std::string& sandboxId, const logs::LogLine& line);
    // The kind of mark a system log line is, or "" for none.
    static std::string markKind(const logs::LogLine& line);

    struct View
    {
        std::vector<MetricPoint> points;
        std::vector<LifecycleMark> marks;
        std::optional<MetricPoint> latest;
        std::string source; // "cgroup" | "proc" | "" (no sample yet)
    };
    // The last `rangeMs` of a sandbox's metrics (empty before its first sample). The caller
    // knows the sandbox exists.
    View view(const std::string& sandboxId, int64_t rangeMs);
    std::optional<MetricPoint> latest(const std::string& sandboxId);

    // Followers: each sample, each mark, and nullptr once the sandbox is gone. Called under the
    // sampler's lock: post the work elsewhere, never call back.
    struct Update
    {
        std::optional<MetricPoint> sample;
        std::optional<LifecycleMark> mark;
    };
    using Listener = std::function<void(const Update*)>;
    uint64_t subscribe(const std::string& sandboxId, Listener listener);
    void unsubscribe(const std::string& sandboxId, uint64_t token);

    // What sampling costs (make bench): the sampler thread's CPU time so far, its ticks, and
    // the sandboxes of the last tick.
    struct Stats
    {
        double cpuMs = 0;
        double wallMs = 0; // since start
        uint64_t ticks = 0;
        int sandboxes = 0;
        double lastTickMs = 0;
    };
    Stats stats() const;

private:
    struct Reading; // runtime::UsageReading and when it was read
    struct State;
    void run();
    void tick();
    State& stateLocked(const std::string& id);
    // With its stored series read. Readers other than the sampler thread find it again under
    // the lock rather than keep the reference.
    State& loadedState(const std::string& id);
    std::string dirOf(const std::string& id) const { return m_dataDir + "/sandboxes/" + id; }

    store::Store& m_store;
    runtime::Runtime& m_runtime;
    std::string m_dataDir;
    const int m_intervalMs;

    mutable std::mutex m_mutex;
    std::map<std::string, std::unique_ptr<State>> m_states; // erased by the sampler thread only
    uint64_t m_nextToken = 1;
    Stats m_stats;

    std::mutex m_runMutex;
    std::condition_variable m_wake;
    bool m_stopping = false;
    std::thread m_thread;
};

} // namespace lizard::sandboxes
