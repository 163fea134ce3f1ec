#pragma once
// The output a schedule's run keeps: stdout and stderr as they came, the first kHeadBytes and
// the last kTailBytes, with a line saying how much was left out between them.

#include <cstdint>
#include <string>
#include <string_view>

namespace lizard::sandboxes {

class RunOutput
{
public:
    static constexpr size_t kHeadBytes = 16 * 1024;
    static constexpr size_t kTailBytes = 16 * 1024;

    void feed(std::string_view chunk);
    // What is kept, at most kHeadBytes + kTailBytes plus the marker line.
    std::string text() const;
    uint64_t bytes() const { return m_bytes; }

private:
    std::string m_head;
    std::string m_tail; // the newest bytes past the head, trimmed to kTailBytes when it doubles
    uint64_t m_bytes = 0;
};

} // namespace lizard::sandboxes
