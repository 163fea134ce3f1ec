#pragma once
// Reference measurements taken in the same run, so a figure can be read against what the
// machine itself does without lizard-local in the way.

#include <cstdint>
#include <string>
#include <vector>

namespace lizard::bench {

struct ReferenceResult
{
    double value = 0; // ms for timings, MB/s for throughput
    std::uint64_t bytes = 0;
    std::string error; // non-empty: no reference (tool missing, failed run)
};

// Median wall time of `runs` runs of argv (a program found on PATH), each waited for.
ReferenceResult medianRunMs(const std::vector<std::string>& argv, int runs);

// Runs `shellCommand` with /bin/sh and reads its stdout through a pipe: MB/s (10^6 bytes).
ReferenceResult pipeThroughput(const std::string& shellCommand);

} // namespace lizard::bench
