#pragma once
// Calendar arithmetic on seconds since the epoch with no time zone attached (the proleptic
// Gregorian calendar, as Howard Hinnant's date algorithms do it): pure functions, so the
// scheduler never needs the C library's TZ state.

#include <cstdint>

namespace lizard::sandboxes {

struct CivilTime
{
    int year = 1970;
    int month = 1; // 1..12
    int day = 1;   // 1..31
    int hour = 0;
    int minute = 0;
    int second = 0;
    int weekday = 4; // 0 = Sunday
};

// Days since 1970-01-01 of a date (month 1..12; day may run past the month's end).
int64_t daysFromCivil(int year, int month, int day);
// The date and time of `seconds` read as a wall clock (UTC, or local seconds = UTC + offset).
CivilTime civilFromSeconds(int64_t seconds);
bool isLeapYear(int year);
int daysInMonth(int year, int month);
// 0 = Sunday.
int weekdayOfDays(int64_t days);
// a / b rounded toward negative infinity (b > 0).
int64_t floorDivide(int64_t a, int64_t b);

} // namespace lizard::sandboxes
