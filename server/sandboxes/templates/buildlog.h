#pragma once
// A template build's log: lines in memory for the clients that follow it live, and in a file
// (<dataDir>/template-builds/<id>.log) for the ones that come after it ended. Bounded: past
// kMaxBytes the output is counted, not kept, and the last line says how much was dropped.

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace lizard::sandboxes {

class BuildLog
{
public:
    static constexpr size_t kMaxBytes = 4 * 1024 * 1024;

    explicit BuildLog(std::string path, size_t maxBytes = kMaxBytes);

    // A line of the builder's own ("step 2/5: pip (line 4)").
    void line(std::string text);
    // A step's raw output: split into lines (a "\r" progress line keeps its last state), control
    // bytes other than tabs dropped. A partial last line waits for the next chunk or flush().
    void output(std::string_view chunk);
    void flush();
    // The end (once the build's record is final): listeners get nullptr and go.
    void finish();

    // Called with each new line, or with nullptr at the end; under the log's lock: post, never
    // call back.
    using Listener = std::function<void(const std::string* line)>;
    struct Subscription
    {
        uint64_t token = 0; // 0: the log had ended, nothing was registered
        std::vector<std::string> lines;
        bool ended = false;
    };
    Subscription subscribe(Listener listener);
    void unsubscribe(uint64_t token);

    // The lines of an ended build's file (empty if it has none).
    static std::vector<std::string> readFile(const std::string& path);

private:
    void addLocked(std::string text);

    const std::string m_path;
    const size_t m_maxBytes;
    std::mutex m_mutex;
    std::vector<std::string> m_lines;
    std::string m_partial;
    bool m_carriageReturn = false; // the last byte was "\r"
    size_t m_bytes = 0;
    size_t m_dropped = 0;
    bool m_ended = false;
    std::map<uint64_t, Listener> m_listeners;
    uint64_t m_nextToken = 1;
};

} // namespace lizard::sandboxes
