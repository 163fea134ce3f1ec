#include "sandboxes/schedules/nextcronrun.h"

namespace lizard::sandboxes {

namespace {

int64_t ceilToMinute(int64_t t)
{
    const int64_t r = t % 60;
    return r == 0 ? t : t + (r > 0 ? 60 - r : -r);
}

// Whether a local wall-clock minute in [fromLocal, toLocal) matches: the time the clocks skipped.
bool skippedTimeMatches(const CronExpression& cron, int64_t fromLocal, int64_t toLocal)
{
    for (int64_t t = ceilToMinute(fromLocal); t < toLocal; t += 60) {
        if (cron.matches(civilFromSeconds(t)))
            return true;
    }
    return false;
}

// `t` lies in the second pass of a local hour that repeats (the clocks went back at or before
// it, and its wall clock already showed once).
bool inSecondPass(const TimeZone& zone, int64_t t)
{
    const auto change = zone.previousChange(t);
    if (!change)
        return false;
    const int32_t before = zone.offsetAt(*change - 1);
    const int32_t after = zone.offsetAt(*change);
    return after < before && t < *change + (before - after);
}

} // namespace

std::optional<int64_t> nextCronRun(const CronExpression& cron, const TimeZone& zone,
                                   int64_t afterUtc)
{
    const int64_t limit = afterUtc + kCronHorizonSeconds;
    int64_t t = ceilToMinute(afterUtc + 1);
    while (t <= limit) {
        const auto change = zone.nextChange(t - 1); // the first change at or after t
        const int32_t offset = zone.offsetAt(t);
        if (change && ceilToMinute(*change) == t) {
            const int32_t before = zone.offsetAt(*change - 1);
            if (offset > before && skippedTimeMatches(cron, *change + before, *change + offset))
                return t;
        }
        const int64_t local = t + offset;
        const CivilTime c = civilFromSeconds(local);
        int64_t step = 0;
        if (!cron.matchesDate(c.month, c.day, c.weekday))
            step = 86400 - (local % 86400 + 86400) % 86400; // to the next local midnight
        else if (!cron.matchesHour(c.hour))
            step = 3600 - (local % 3600 + 3600) % 3600; // to the next local hour
        else if (!cron.matchesMinute(c.minute))
            step = 60;
        else if (!cron.everyHour() && inSecondPass(zone, t))
            step = 60;
        else
            return t;
        int64_t next = ceilToMinute(t + step);
        // Never jump over a change of offset: the wall clock moves differently there.
        if (change && *change > t && *change < next)
            next = ceilToMinute(*change);
        t = std::max(next, t + 60);
    }
    return std::nullopt;
}

} // namespace lizard::sandboxes
