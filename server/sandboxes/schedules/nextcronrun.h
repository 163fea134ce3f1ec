#pragma once
// When a cron schedule fires next, on the wall clock of its time zone. Daylight saving time:
// - clocks go forward (a local hour that does not exist): what falls in the skipped time runs
//   once, at the moment of the change (as cronie does), never dropped;
// - clocks go back (a local hour that happens twice): a schedule whose hour field begins with
//   `*` (it is about elapsed time) runs in both passes; any other runs in the first only, so a
//   daily 02:30 job runs once that night.

#include "sandboxes/schedules/cronexpression.h"
#include "sandboxes/schedules/timezone.h"

#include <cstdint>
#include <optional>

namespace lizard::sandboxes {

// How far ahead a schedule is looked for: past any calendar gap a valid expression can have
// (February 29 skips at most 8 years, as from 2096 to 2104).
inline constexpr int64_t kCronHorizonSeconds = int64_t(9) * 366 * 86400;

// The first instant (UTC seconds, on a whole minute) strictly after `afterUtc` at which `cron`
// fires in `zone`; nullopt when it never does within kCronHorizonSeconds ("0 0 31 2 *").
std::optional<int64_t> nextCronRun(const CronExpression& cron, const TimeZone& zone,
                                   int64_t afterUtc);

} // namespace lizard::sandboxes
