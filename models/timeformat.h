#pragma once
// Text for times shown in the sandbox table: "time left", "started" (relative, with the absolute
// time for its tooltip).

#include <QDateTime>
#include <QString>

namespace lizard::models {

// "4:59", "1:02:03", "2d 03:04:05"; "no limit" when endAt is invalid; "expired" once passed.
QString formatTimeLeft(const QDateTime& endAt, const QDateTime& now);

// Local time "hh:mm:ss" for today, "yyyy-MM-dd hh:mm" otherwise; "" when invalid.
QString formatStarted(const QDateTime& startedAt, const QDateTime& now);

// How long ago, as a table says it at a glance: "just now" (under 10 s), "42 s ago",
// "5 min ago", "3 h 12 min ago", "2 days ago"; "" when invalid.
QString formatAgo(const QDateTime& then, const QDateTime& now);

// The full local time for a tooltip: "2026-12-05 11:04:31"; "" when invalid.
QString formatAbsolute(const QDateTime& t);

} // namespace lizard::models
