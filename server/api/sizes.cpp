#include "api/sizes.h"

#include <algorithm>
#include <array>
#include <sched.h>
#include <sys/sysinfo.h>
#include <unistd.h>

namespace lizard::api {

namespace {

struct SizeRow
{
    const char* name;
    double cpus;
    int memoryMb;
};

constexpr std::array<SizeRow, 6> kSizes{{
    {"nano", 0.5, 1024},
    {"mini", 1, 2048},
    {"small", 2, 4096},
    {"medium", 4, 8192},
    {"large", 8, 16384},
    {"big", 16, 32768},
}};

constexpr int kPidsMax = 1024;

} // namespace

HostResources hostResources()
{
    static const HostResources host = [] {
        HostResources h;
        cpu_set_t set;
        CPU_ZERO(&set);
        if (::sched_getaffinity(0, sizeof set, &set) == 0)
            h.cpus = CPU_COUNT(&set);
        if (h.cpus <= 0)
            h.cpus = int(std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN)));
        struct sysinfo info
        {
        };
        if (::sysinfo(&info) == 0)
            h.memoryMb = int((unsigned long long)info.totalram * info.mem_unit / (1024 * 1024));
        return h;
    }();
    return host;
}

runtime::Limits clampToHost(runtime::Limits limits, const HostResources& host)
{
    if (host.cpus > 0)
        limits.cpus = std::min(limits.cpus, double(host.cpus));
    if (host.memoryMb > 0)
        limits.memoryMb = std::min(limits.memoryMb, std::max(256, host.memoryMb * 3 / 4));
    return limits;
}

std::optional<runtime::Limits> limitsForSize(const std::string& size)
{
    for (const SizeRow& row : kSizes) {
        if (size == row.name)
            return clampToHost(runtime::Limits{row.cpus, row.memoryMb, kPidsMax}, hostResources());
    }
    return std::nullopt;
}

int pidsForSize(const std::string&)
{
    return kPidsMax;
}

std::string sizeNames()
{
    std::string out;
    for (const SizeRow& row : kSizes)
        out += (out.empty() ? "" : ", ") + std::string(row.name);
    return out;
}

} // namespace lizard::api
