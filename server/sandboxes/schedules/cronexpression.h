#pragma once
// A five-field cron expression, as Vixie cron and cronie read it: minute (0-59), hour (0-23),
// day of month (1-31), month (1-12 or jan-dec), day of week (0-7, 0 and 7 Sunday, or sun-sat);
// each field a list of `*`, `N`, `A-B`, with `/STEP` after `*`, a range or a single start; and
// the macros @yearly (@annually), @monthly, @weekly, @daily (@midnight), @hourly. When both day
// fields are restricted a day matches either of them; a field that begins with `*` counts as
// unrestricted (so "*/2" in one of them still needs the other).

#include "common/result.h"
#include "sandboxes/schedules/civiltime.h"

#include <bitset>
#include <string>
#include <string_view>

namespace lizard::sandboxes {

class CronExpression
{
public:
    // INVALID_CRON (InvalidArgument) with a message naming the field and what is wrong.
    static Result<CronExpression> parse(std::string_view text);

    bool matchesDate(int month, int day, int weekday) const;
    bool matchesHour(int hour) const { return m_hours.test(size_t(hour)); }
    bool matchesMinute(int minute) const { return m_minutes.test(size_t(minute)); }
    bool matches(const CivilTime& t) const
    {
        return matchesDate(t.month, t.day, t.weekday) && matchesHour(t.hour) &&
               matchesMinute(t.minute);
    }
    // The hour field begins with `*`: the schedule is about elapsed time, so it also runs in
    // the hour that repeats when the clocks go back (nextcronrun.h).
    bool everyHour() const { return m_hourStar; }

private:
    std::bitset<60> m_minutes;
    std::bitset<24> m_hours;
    std::bitset<32> m_days;     // 1..31
    std::bitset<13> m_months;   // 1..12
    std::bitset<8> m_weekdays;  // 0..6, 0 = Sunday
    bool m_dayStar = false;     // day-of-month field begins with '*'
    bool m_weekdayStar = false; // day-of-week field begins with '*'
    bool m_hourStar = false;
};

} // namespace lizard::sandboxes
