#include "api/sizes.h"

#include <array>

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

std::optional<runtime::Limits> limitsForSize(const std::string& size)
{
    for (const SizeRow& row : kSizes) {
        if (size == row.name)
            return runtime::Limits{row.cpus, row.memoryMb, kPidsMax};
    }
    return std::nullopt;
}

std::string sizeNames()
{
    std::string out;
    for (const SizeRow& row : kSizes)
        out += (out.empty() ? "" : ", ") + std::string(row.name);
    return out;
}

} // namespace lizard::api
