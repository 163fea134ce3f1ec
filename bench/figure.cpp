#include "figure.h"

#include <cstdio>

namespace lizard::bench {

namespace {

std::string number(double v, const std::string& unit)
{
    char buf[64];
    if (unit == "ms")
        std::snprintf(buf, sizeof buf, "%.2f ms", v);
    else if (unit == "% of a core") // a sampler's cost is a fraction of a percent
        std::snprintf(buf, sizeof buf, "%.2f %s", v, unit.c_str());
    else if (unit == "%" || unit == "MiB")
        std::snprintf(buf, sizeof buf, "%.1f %s", v, unit.c_str());
    else
        std::snprintf(buf, sizeof buf, "%.0f %s", v, unit.c_str());
    return buf;
}

std::string padded(std::string s, size_t width)
{
    if (s.size() < width)
        s.append(width - s.size(), ' ');
    return s;
}

} // namespace

bool Figure::passes() const
{
    if (!error.empty())
        return false;
    if (!hasTarget)
        return true;
    return higherIsBetter ? value >= target : value <= target;
}

std::string Figure::line() const
{
    const std::string label = padded(name, 28) + padded(statistic, 22);
    if (!error.empty())
        return label + "ERROR  " + error;
    std::string out = label + padded(number(value, unit), 14);
    if (hasTarget)
        out += "target " +
               padded(std::string(higherIsBetter ? ">= " : "<= ") + number(target, unit), 16) +
               (passes() ? "PASS" : "MISS");
    else
        out += padded("(no target)", 20);
    if (reference) {
        char ratio[64] = "n/a";
        if (reference->value > 0)
            std::snprintf(ratio, sizeof ratio, "%.2fx", value / reference->value);
        out += "   reference " + reference->what + ": " + number(reference->value, unit) +
               " (ratio " + ratio + ")";
    }
    if (!note.empty())
        out += "   [" + note + "]";
    return out;
}

} // namespace lizard::bench
