#pragma once
// One sandbox's metrics on disk, <sandbox dir>/metrics.bin: it goes with the sandbox's directory
// and survives a restart of lizard-local. Append-only records (a sample, a closed bucket, a
// lifecycle mark), rewritten from memory once past kMaxBytes, so the file stays under about
// kMaxBytes and a sample costs one write. A record cut short by a crash is ignored at load.

#include "sandboxes/metricsseries.h"

#include <cstddef>
#include <deque>
#include <string>

namespace lizard::sandboxes {

// A lifecycle event drawn on the time axis (from the sandbox's system log).
struct LifecycleMark
{
    int64_t t = 0;       // unix ms
    std::string kind;    // created | paused | resumed | snapshot | fork | timeout | oom
    std::string message; // the system log's line
};

class MetricsFile
{
public:
    static constexpr size_t kMaxBytes = 512 * 1024;
    static constexpr size_t kMaxMarks = 500; // and 24 hours

    explicit MetricsFile(std::string path) : m_path(std::move(path)) {}

    // Records, to append together.
    static std::string sampleRecord(const MetricPoint& sample);
    static std::string bucketRecord(int tier, const MetricPoint& bucket);
    static std::string markRecord(const LifecycleMark& mark);

    // Reads the stored series and marks into empty ones. False when there is no file.
    bool load(MetricsSeries& series, std::deque<LifecycleMark>& marks) const;
    // Appends records to an existing file, or creates it when `create`: an append never
    // creates the file, so a sandbox whose directory is being removed gets none back.
    bool append(const std::string& records, bool create = false) const;
    // Replaces the file with the state in memory (atomically). Its new size in `bytes`.
    bool rewrite(const MetricsSeries& series, const std::deque<LifecycleMark>& marks,
                 size_t& bytes) const;
    const std::string& path() const { return m_path; }

private:
    std::string m_path;
};

} // namespace lizard::sandboxes
