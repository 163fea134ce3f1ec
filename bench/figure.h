#pragma once
// One benchmark figure: what was measured, its target, an optional reference, and how it printed.

#include <optional>
#include <string>

namespace lizard::bench {

struct Reference
{
    std::string what; // e.g. "bwrap --unshare-all /bin/true"
    double value = 0; // in the figure's unit
};

struct Figure
{
    std::string name;      // "sandbox create -> running"
    std::string statistic; // "median of 20"
    std::string unit;      // "ms", "req/s", "MB/s"
    double value = 0;
    double target = 0;
    bool higherIsBetter = false; // true: value >= target passes; false: value <= target passes
    bool hasTarget = true;       // false: a figure to read, not to pass (no target, no PASS/MISS)
    std::optional<Reference> reference;
    std::string note;  // extra detail (spread, counts)
    std::string error; // non-empty: the figure could not be measured

    bool passes() const;
    // One line: name, value, target, PASS/MISS (or ERROR), reference and ratio.
    std::string line() const;
};

} // namespace lizard::bench
