#pragma once
// Times of the Schedules tab: a relative time ("in 4 s", "2 min ago") whose absolute value the
// views put in the tooltip, and durations.

#include <QDateTime>
#include <QString>

namespace lizard::models {

// "in 12 s", "in 3 min", "in 2 h 5 min", "in 3 d"; "5 s ago"…; "now" within a second.
QString formatRelativeTime(const QDateTime& at, const QDateTime& now);
// "850 ms", "2.4 s", "3 min 20 s", "1 h 2 min".
QString formatScheduleDuration(qint64 ms);
// An interval in seconds as "every" text: "90s", "5m", "1h", "1h30m", "2d".
QString formatScheduleSeconds(qint64 seconds);

} // namespace lizard::models
