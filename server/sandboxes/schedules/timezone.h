#pragma once
// An IANA time zone ("Europe/Berlin") read from the system's tzdata: the TZif file under
// /usr/share/zoneinfo (RFC 8536) for its transitions and, past the last one, the POSIX rule of
// its footer. GCC 12 has no C++20 chrono time zones, and TZ with localtime_r would mean changing
// the process's environment under other threads; this reader is pure arithmetic once loaded,
// so any thread may ask, and loaded zones are shared (immutable) by name.

#include "common/result.h"
#include "sandboxes/schedules/posixtzrule.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lizard::sandboxes {

inline constexpr const char* kZoneInfoDir = "/usr/share/zoneinfo";

class TimeZone
{
public:
    // The zone `name`, loaded once and kept. "UTC" (also "Etc/UTC", "Etc/GMT", "GMT", "Z")
    // needs no file. An invalid name, an unknown zone or a file this reader cannot read is
    // INVALID_TIMEZONE (InvalidArgument) with a message that says which.
    static Result<std::shared_ptr<const TimeZone>> named(const std::string& name);
    // Reads a zone from `dir` (tests), uncached.
    static Result<std::shared_ptr<const TimeZone>> load(const std::string& name,
                                                        const std::string& dir);
    // A zone from TZif bytes (tests and load()).
    static Result<std::shared_ptr<const TimeZone>> fromTzif(const std::string& name,
                                                            std::string_view bytes);
    // Whether `name` is spelled like a zone name (letters, digits, "._+-", '/' between parts,
    // no "." or ".." part): nothing else is ever looked up as a file.
    static bool validName(std::string_view name);

    const std::string& name() const { return m_name; }
    int32_t offsetAt(int64_t utcSeconds) const; // seconds east of UTC
    // The first instant after `utcSeconds` at which the offset changes (nullopt: never).
    std::optional<int64_t> nextChange(int64_t utcSeconds) const;
    // The last instant at or before `utcSeconds` at which the offset changed.
    std::optional<int64_t> previousChange(int64_t utcSeconds) const;

private:
    std::string m_name;
    int32_t m_initial = 0;              // before the first transition
    std::vector<int64_t> m_transitions; // only those that change the offset, ascending
    std::vector<int32_t> m_offsets;     // the offset from each transition on
    std::optional<PosixTzRule> m_rule;  // past the last transition
};

} // namespace lizard::sandboxes
