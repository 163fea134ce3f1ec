#include "sandboxes/metricssampler.h"

#include "common/log.h"
#include "common/timeutil.h"
#include "runtime/runtime.h"
#include "runtime/sandboxusage.h"
#include "store/store.h"

#include <chrono>
#include <ctime>
#include <set>
#include <sys/stat.h>

namespace lizard::sandboxes {

namespace {

using SamplerClock = std::chrono::steady_clock;

double samplerThreadCpuMs()
{
    timespec ts{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

bool markStartsWith(const std::string& s, const char* prefix)
{
    return s.rfind(prefix, 0) == 0;
}

// The rate of a counter between two readings; unknown when either is, zero when it went back
// (a process whose counters nobody inherited ended).
double counterRate(const std::optional<uint64_t>& before, const std::optional<uint64_t>& now,
                   double seconds)
{
    if (!before || !now)
        return MetricPoint::kUnknown;
    return *now >= *before ? double(*now - *before) / seconds : 0.0;
}

double samplerLevelOf(const std::optional<uint64_t>& v)
{
    return v ? double(*v) : MetricPoint::kUnknown;
}

} // namespace

struct MetricsSampler::Reading
{
    runtime::UsageReading usage;
    SamplerClock::time_point at;
    int64_t wallMs = 0; // the sample's time: rates times the gaps between samples add up
};

// One sandbox. The series, marks, latest and listeners are shared (under m_mutex); the rest
// belongs to the sampler thread.
struct MetricsSampler::State
{
    MetricsSeries series;
    std::deque<LifecycleMark> marks;
    std::optional<MetricPoint> latest;
    std::string source;
    std::map<uint64_t, Listener> listeners;
    std::vector<LifecycleMark> unsaved; // marks not yet in the file
    bool loaded = false;                // the file was read (sampler thread, under m_mutex)

    // Sampler thread only (the file's two figures are set once by whoever loads it, under
    // m_mutex, before the sampler thread uses them).
    std::optional<Reading> previous;
    runtime::CgroupStatDirs cgroups;
    pid_t cgroupsOf = 0; // the PID 1 they were found for
    runtime::IoCarry io;
    bool fileExists = false;
    size_t fileBytes = 0;
};

MetricsSampler::MetricsSampler(store::Store& store, runtime::Runtime& runtime, std::string dataDir,
                               int intervalMs)
    : m_store(store), m_runtime(runtime), m_dataDir(std::move(dataDir)), m_intervalMs(intervalMs)
{
}

MetricsSampler::~MetricsSampler()
{
    stop();
}

void MetricsSampler::start()
{
    m_thread = std::thread([this] { run(); });
}

void MetricsSampler::stop()
{
    {
        std::lock_guard lock(m_runMutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

void MetricsSampler::run()
{
    const auto started = SamplerClock::now();
    auto next = started;
    std::unique_lock lock(m_runMutex);
    while (!m_stopping) {
        lock.unlock();
        const double cpuBefore = samplerThreadCpuMs();
        const auto tickStart = SamplerClock::now();
        tick();
        const double tickMs =
            std::chrono::duration<double, std::milli>(SamplerClock::now() - tickStart).count();
        {
            std::lock_guard stats(m_mutex);
            m_stats.cpuMs += samplerThreadCpuMs() - cpuBefore;
            m_stats.ticks += 1;
            m_stats.lastTickMs = tickMs;
            m_stats.wallMs =
                std::chrono::duration<double, std::milli>(SamplerClock::now() - started).count();
        }
        // A fixed cadence: a slow tick does not push every later sample back.
        next += std::chrono::milliseconds(m_intervalMs);
        if (next < SamplerClock::now())
            next = SamplerClock::now() + std::chrono::milliseconds(m_intervalMs);
        lock.lock();
        m_wake.wait_until(lock, next, [this] { return m_stopping; });
    }
}

MetricsSampler::State& MetricsSampler::stateLocked(const std::string& id)
{
    auto& slot = m_states[id];
    if (!slot)
        slot = std::make_unique<State>();
    return *slot;
}

MetricsSampler::State& MetricsSampler::loadedState(const std::string& id)
{
    State* state = nullptr;
    {
        std::lock_guard lock(m_mutex);
        state = &stateLocked(id);
        if (state->loaded)
            return *state;
    }
    // First sight of a sandbox (new, or since lizard-local started): its stored series. Read
    // without the lock; whoever comes second (the sampler thread or a reader) keeps the first.
    MetricsSeries series;
    std::deque<LifecycleMark> marks;
    MetricsFile file(dirOf(id) + "/metrics.bin");
    const bool found = file.load(series, marks);
    struct stat st
    {
    };
    const size_t bytes = found && ::stat(file.path().c_str(), &st) == 0 ? size_t(st.st_size) : 0;
    std::lock_guard lock(m_mutex);
    state = &stateLocked(id); // again: the sampler thread may have erased it meanwhile
    if (state->loaded)
        return *state;
    // Marks the tap added before the load come after the stored ones.
    for (const LifecycleMark& m : state->marks)
        marks.push_back(m);
    state->series = std::move(series);
    state->marks = std::move(marks);
    if (!state->series.raw().empty())
        state->latest = state->series.raw().back();
    state->loaded = true;
    state->fileExists = found;
    state->fileBytes = bytes;
    return *state;
}

void MetricsSampler::tick()
{
    const auto sandboxes = m_store.runningSandboxes();
    const std::string cgroupMode = m_runtime.capabilities().cgroupMode;
    const int64_t now = nowMs();

    std::vector<std::pair<store::SandboxPtr, State*>> work;
    for (const auto& rec : sandboxes)
        work.emplace_back(rec, &loadedState(rec->id));

    // Sandboxes without a cgroup of their own are found in one pass over /proc.
    bool needProcs = false;
    for (auto& [rec, state] : work) {
        if (rec->paused())
            continue;
        if (state->cgroupsOf != rec->handle.initPid) {
            state->cgroups = runtime::findCgroupDirs(rec->handle.initPid, rec->id, cgroupMode);
            state->cgroupsOf = rec->handle.initPid;
        }
        needProcs = needProcs || !state->cgroups.any();
    }
    std::optional<runtime::ProcSnapshot> procs;
    if (needProcs) {
        procs.emplace();
        procs->scan();
    }

    for (auto& [rec, state] : work) {
        std::optional<MetricPoint> sample;
        if (rec->paused()) {
            state->previous.reset(); // the first reading after resume is a new baseline
        } else {
            Reading reading{runtime::readUsage(rec->handle.initPid, state->cgroups,
                                               procs ? &*procs : nullptr, state->io),
                            SamplerClock::now(), nowMs()};
            const auto disk = m_runtime.diskUsedBytes(rec->handle);
            if (state->previous) {
                const Reading& before = *state->previous;
                const double seconds =
                    std::chrono::duration<double>(reading.at - before.at).count();
                if (seconds > 0) {
                    MetricPoint p;
                    p.t = reading.wallMs;
                    if (before.usage.cpuSeconds && reading.usage.cpuSeconds)
                        p.cpu =
                            std::max(0.0, *reading.usage.cpuSeconds - *before.usage.cpuSeconds) /
                            seconds;
                    p.memory = samplerLevelOf(reading.usage.memoryBytes);
                    p.pids = samplerLevelOf(reading.usage.tasks);
                    p.disk = samplerLevelOf(disk);
                    p.networkRx =
                        counterRate(before.usage.netRxBytes, reading.usage.netRxBytes, seconds);
                    p.networkTx =
                        counterRate(before.usage.netTxBytes, reading.usage.netTxBytes, seconds);
                    p.diskRead =
                        counterRate(before.usage.ioReadBytes, reading.usage.ioReadBytes, seconds);
                    p.diskWrite =
                        counterRate(before.usage.ioWriteBytes, reading.usage.ioWriteBytes, seconds);
                    sample = p;
                }
            }
            state->previous = std::move(reading);
        }

        // Into memory, to the followers, then to the file.
        std::string records;
        {
            std::lock_guard lock(m_mutex);
            if (sample) {
                state->series.add(*sample);
                state->latest = sample;
                state->source = state->previous->usage.source;
                records += MetricsFile::sampleRecord(*sample);
                const Update update{sample, std::nullopt};
                for (auto& [token, listener] : state->listeners)
                    listener(&update);
            }
            state->series.advance(now);
            for (const auto& [tier, bucket] : state->series.takeClosed())
                records += MetricsFile::bucketRecord(tier, bucket);
            for (const LifecycleMark& m : state->unsaved)
                records += MetricsFile::markRecord(m);
            state->unsaved.clear();
            while (!state->marks.empty() &&
                   (state->marks.size() > MetricsFile::kMaxMarks ||
                    state->marks.front().t < now - MetricsSeries::kTiers[1].keepMs))
                state->marks.pop_front();
        }
        if (records.empty())
            continue;
        MetricsFile file(dirOf(rec->id) + "/metrics.bin");
        if (state->fileBytes + records.size() > MetricsFile::kMaxBytes) {
            std::deque<LifecycleMark> marks;
            {
                std::lock_guard lock(m_mutex);
                marks = state->marks;
            }
            // The series changes on this thread only: read here without the lock.
            size_t bytes = 0;
            if (file.rewrite(state->series, marks, bytes)) {
                state->fileExists = true;
                state->fileBytes = bytes;
            }
        } else if (file.append(records, !state->fileExists)) {
            state->fileExists = true;
            state->fileBytes += records.size();
        }
    }

    // Gone sandboxes: their followers end; their file went with their directory.
    std::set<std::string> alive;
    for (const auto& rec : sandboxes)
        alive.insert(rec->id);
    std::lock_guard lock(m_mutex);
    for (auto it = m_states.begin(); it != m_states.end();) {
        if (alive.count(it->first)) {
            ++it;
            continue;
        }
        for (auto& [token, listener] : it->second->listeners)
            listener(nullptr);
        it = m_states.erase(it);
    }
    m_stats.sandboxes = int(sandboxes.size());
}

std::string MetricsSampler::markKind(const logs::LogLine& line)
{
    const std::string& m = line.message;
    if (line.source == "kernel")
        return markStartsWith(m, "OOM:") ? "oom" : "";
    if (line.source != "lifecycle")
        return "";
    if (markStartsWith(m, "created"))
        return "created";
    if (markStartsWith(m, "paused"))
        return "paused";
    if (markStartsWith(m, "resumed"))
        return "resumed";
    if (markStartsWith(m, "snapshot "))
        return "snapshot";
    if (markStartsWith(m, "forked "))
        return "fork";
    if (markStartsWith(m, "timeout set"))
        return "timeout";
    return "";
}

void MetricsSampler::onLogLine(const std::string& sandboxId, const logs::LogLine& line)
{
    const std::string kind = markKind(line);
    if (kind.empty())
        return;
    const LifecycleMark mark{line.ts, kind, line.message};
    std::lock_guard lock(m_mutex);
    State& state = stateLocked(sandboxId);
    state.marks.push_back(mark);
    state.unsaved.push_back(mark);
    const Update update{std::nullopt, mark};
    for (auto& [token, listener] : state.listeners)
        listener(&update);
}

MetricsSampler::View MetricsSampler::view(const std::string& sandboxId, int64_t rangeMs)
{
    // A request right after a restart can come before the sampler's first tick: it reads the
    // stored series itself rather than answer an empty one.
    loadedState(sandboxId);
    View out;
    std::lock_guard lock(m_mutex);
    // Found again: the sampler thread erases the state of a sandbox that went meanwhile.
    const auto it = m_states.find(sandboxId);
    if (it == m_states.end())
        return out;
    const State& s = *it->second;
    const int64_t now = nowMs();
    out.points = s.series.range(now, rangeMs);
    for (const LifecycleMark& m : s.marks)
        if (m.t >= now - rangeMs)
            out.marks.push_back(m);
    out.latest = s.latest;
    out.source = s.source;
    return out;
}

std::optional<MetricPoint> MetricsSampler::latest(const std::string& sandboxId)
{
    loadedState(sandboxId);
    std::lock_guard lock(m_mutex);
    const auto it = m_states.find(sandboxId);
    return it == m_states.end() ? std::nullopt : it->second->latest;
}

uint64_t MetricsSampler::subscribe(const std::string& sandboxId, Listener listener)
{
    std::lock_guard lock(m_mutex);
    const uint64_t token = m_nextToken++;
    stateLocked(sandboxId).listeners.emplace(token, std::move(listener));
    return token;
}

void MetricsSampler::unsubscribe(const std::string& sandboxId, uint64_t token)
{
    std::lock_guard lock(m_mutex);
    if (const auto it = m_states.find(sandboxId); it != m_states.end())
        it->second->listeners.erase(token);
}

MetricsSampler::Stats MetricsSampler::stats() const
{
    std::lock_guard lock(m_mutex);
    return m_stats;
}

} // namespace lizard::sandboxes
