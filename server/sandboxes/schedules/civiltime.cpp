#include "sandboxes/schedules/civiltime.h"

namespace lizard::sandboxes {

int64_t floorDivide(int64_t a, int64_t b)
{
    return a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0);
}

int64_t daysFromCivil(int year, int month, int day)
{
    const int64_t y = int64_t(year) - (month <= 2 ? 1 : 0);
    const int64_t era = floorDivide(y, 400);
    const int64_t yoe = y - era * 400;
    const int64_t mp = (month + 9) % 12; // March = 0
    const int64_t doy = (153 * mp + 2) / 5 + day - 1;
    const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

CivilTime civilFromSeconds(int64_t seconds)
{
    const int64_t days = floorDivide(seconds, 86400);
    const int64_t rest = seconds - days * 86400;
    const int64_t z = days + 719468;
    const int64_t era = floorDivide(z, 146097);
    const int64_t doe = z - era * 146097;
    const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const int64_t mp = (5 * doy + 2) / 153;
    CivilTime t;
    t.day = int(doy - (153 * mp + 2) / 5 + 1);
    t.month = int(mp < 10 ? mp + 3 : mp - 9);
    t.year = int(yoe + era * 400 + (t.month <= 2 ? 1 : 0));
    t.hour = int(rest / 3600);
    t.minute = int(rest % 3600 / 60);
    t.second = int(rest % 60);
    t.weekday = weekdayOfDays(days);
    return t;
}

bool isLeapYear(int year)
{
    return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

int daysInMonth(int year, int month)
{
    static constexpr int kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return month == 2 && isLeapYear(year) ? 29 : kDays[(month - 1) % 12];
}

int weekdayOfDays(int64_t days)
{
    const int64_t w = (days + 4) % 7; // 1970-01-01 was a Thursday
    return int(w < 0 ? w + 7 : w);
}

} // namespace lizard::sandboxes
