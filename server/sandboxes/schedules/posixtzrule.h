#pragma once
// The POSIX TZ rule that ends a TZif file ("CET-1CEST,M3.5.0,M10.5.0/3"): standard and
// daylight offsets and the yearly dates between them. It gives the offsets past the file's last
// transition, which for Debian's files is 2037; schedules reach beyond it.

#include <cstdint>
#include <optional>
#include <string_view>

namespace lizard::sandboxes {

class PosixTzRule
{
public:
    // nullopt when `text` is not a rule this reader understands (then the zone is refused).
    static std::optional<PosixTzRule> parse(std::string_view text);

    int32_t offsetAt(int64_t utcSeconds) const; // seconds east of UTC
    // The first instant after `utcSeconds` at which the offset changes (nullopt: never).
    std::optional<int64_t> nextChange(int64_t utcSeconds) const;
    // The last instant at or before `utcSeconds` at which the offset changed (nullopt: none
    // within a year, or never).
    std::optional<int64_t> previousChange(int64_t utcSeconds) const;

private:
    // A yearly date: Jn (1..365, February 29 never counted), n (0..365) or Mm.w.d.
    struct Date
    {
        enum class Kind { Julian1, Julian0, MonthWeekDay } kind = Kind::MonthWeekDay;
        int n = 0;
        int month = 0, week = 0, weekday = 0;
        int32_t time = 7200; // seconds after local midnight (may be negative or past 24 h)
    };
    struct Event
    {
        int64_t at;
        bool dstStarts;
    };
    // Day number (since the epoch) of `date` in `year`.
    static int64_t dayOf(const Date& date, int year);
    // The DST start and end of `year` as UTC instants.
    void eventsOf(int year, Event out[2]) const;
    bool dstAt(int64_t utcSeconds) const;

    int32_t m_std = 0; // seconds east of UTC
    bool m_hasDst = false;
    int32_t m_dst = 0;
    Date m_start, m_end;
};

} // namespace lizard::sandboxes
