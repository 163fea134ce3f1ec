#pragma once
// Small timing and statistics helpers for the benchmarks.

#include <chrono>
#include <string>
#include <vector>

namespace lizard::bench {

using Clock = std::chrono::steady_clock;

// Milliseconds elapsed since `start`, as a double.
double msSince(Clock::time_point start);

// The median of the samples (the mean of the two middle ones for an even count); 0 when empty.
double median(std::vector<double> samples);

// The q-quantile (0..1) by nearest rank; 0 when empty.
double quantile(std::vector<double> samples, double q);

// "p90 1.23 ms, max 4.56 ms": the spread printed beside a median.
std::string spreadNote(const std::vector<double>& samples);

} // namespace lizard::bench
