#include "common/timeutil.h"

#include <chrono>
#include <cstdio>
#include <ctime>

namespace lizard {

int64_t nowMs()
{
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

std::string isoUtc(int64_t unixMs)
{
    const std::time_t secs = static_cast<std::time_t>(unixMs / 1000);
    const int ms = static_cast<int>(unixMs % 1000);
    std::tm tm{};
    gmtime_r(&secs, &tm);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                  tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ms);
    return buf;
}

} // namespace lizard
