#include "common/log.h"

#include "common/timeutil.h"

#include <cstdio>
#include <mutex>
#include <string>

namespace lizard::log {

namespace {

std::mutex g_mutex;

void write(const char* level, std::string_view message)
{
    const std::string line = isoUtc(nowMs()) + " " + level + " " + std::string(message) + "\n";
    std::lock_guard lock(g_mutex);
    std::fwrite(line.data(), 1, line.size(), stderr);
    std::fflush(stderr);
}

} // namespace

void info(std::string_view message)
{
    write("info", message);
}
void warn(std::string_view message)
{
    write("warn", message);
}
void error(std::string_view message)
{
    write("error", message);
}

} // namespace lizard::log
