#pragma once
// Turns raw exec output into SSE events: one `data: {"stream":..,"line":..}` per line, no
// trailing newline, invalid UTF-8 replaced by U+FFFD (so the JSON is always valid), lines
// longer than 1 MiB split. Written for throughput: no JSON library on this path.

#include "common/jsonstring.h"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace lizard::api {

inline constexpr size_t kMaxLineBytes = 1 << 20;

using lizard::appendJsonString; // common/jsonstring.h
// Length of the longest prefix of `s` (at most `max` bytes) that does not end inside a
// UTF-8 sequence.
size_t utf8Boundary(std::string_view s, size_t max);
// "data: <json>\n\n"
std::string sseEvent(const nlohmann::json& event);

class LineSplitter
{
public:
    explicit LineSplitter(std::string_view streamName);

    // Appends an event per complete line of `chunk` to `out`; keeps the unfinished tail.
    void feed(std::string_view chunk, std::string& out);
    // Appends the unfinished tail (if any) as a last line.
    void flush(std::string& out);

private:
    // (Not `emit`: that is a macro of Qt, which the server suites include first.)
    void appendEvent(std::string_view line, std::string& out) const;

    std::string m_prefix; // data: {"stream":"stdout","line":
    std::string m_partial;
};

} // namespace lizard::api
