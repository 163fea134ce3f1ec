#pragma once
// Counts what an exec event stream carries without building JSON objects per event, so the
// client keeps up with millions of `{"stream":"stdout","line":"..."}` events.

#include <cstdint>
#include <optional>
#include <string>

namespace lizard::bench {

class SseCounter
{
public:
    // Feeds received bytes; complete lines are processed, a partial one is kept.
    void feed(const char* data, size_t size);

    std::uint64_t outputBytes() const { return m_outputBytes; } // decoded line bytes + newlines
    std::uint64_t lines() const { return m_lines; }
    std::optional<long> exitCode() const { return m_exitCode; }
    const std::string& malformed() const { return m_malformed; } // first bad event, if any

private:
    void line(const char* begin, const char* end);
    void event(const char* begin, const char* end);

    std::string m_partial;
    std::uint64_t m_outputBytes = 0;
    std::uint64_t m_lines = 0;
    std::optional<long> m_exitCode;
    std::string m_malformed;
};

// The number of UTF-8 bytes the JSON string starting after the opening quote at `p` decodes
// to; sets `end` past the closing quote. Returns -1 when the string is malformed.
long decodedJsonStringLength(const char* p, const char* limit, const char*& end);

} // namespace lizard::bench
