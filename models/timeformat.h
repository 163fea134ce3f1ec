#pragma once
// Text for times shown in the sandbox table: "time left" and "started".

#include <QDateTime>
#include <QString>

namespace lizard::models {

// "4:59", "1:02:03", "2d 03:04:05"; "no limit" when endAt is invalid; "expired" once passed.
QString formatTimeLeft(const QDateTime& endAt, const QDateTime& now);

// Local time "hh:mm:ss" for today, "yyyy-MM-dd hh:mm" otherwise; "" when invalid.
QString formatStarted(const QDateTime& startedAt, const QDateTime& now);

} // namespace lizard::models
