#pragma once
// One sandbox's system log on disk: JSON lines in <sandbox dir>/system.log, rotated to
// system.log.1 past kMaxFileBytes, so the log never takes more than twice that. It lives in
// the sandbox's directory: it goes with the sandbox and survives a restart of lizard-local.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace lizard::logs {

struct LogLine
{
    uint64_t seq = 0;   // 1, 2, ... per sandbox, never reused (the SSE id)
    int64_t ts = 0;     // unix ms
    std::string level;  // "info" | "warn" | "error" | "debug"
    std::string source; // "agent" | "kernel" | "lifecycle"
    std::string message;
};

nlohmann::json toJson(const LogLine& line);

class LogFile
{
public:
    static constexpr size_t kMaxFileBytes = 1 << 20;
    static constexpr size_t kMaxMessageBytes = 4096;

    explicit LogFile(std::string sandboxDir) : m_dir(std::move(sandboxDir)) {}

    // The last `n` lines, oldest first (both files).
    std::vector<LogLine> tail(size_t n) const;
    // The sequence number of the last line on disk (0: none).
    uint64_t lastSeq() const;
    // Appends one line; false when the directory is gone (the sandbox was destroyed).
    bool append(const LogLine& line) const;

private:
    std::string path() const { return m_dir + "/system.log"; }
    std::string m_dir;
};

} // namespace lizard::logs
