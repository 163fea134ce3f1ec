#pragma once
// How close a sandbox is to its limits, from its latest metrics: the fractions the sandbox
// table's bars show and the "near a limit" warnings (memory ≥ 90 %, disk ≥ 90 %, pids at the
// limit). Memory is compared with the limit only where it bounds the sandbox's total (cgroups);
// an ordinary user's lizard-local bounds each process's data instead, which a sandbox's total
// may well exceed without any process being near its own limit.

#include "client/metricstypes.h"

#include <QString>
#include <QStringList>

namespace lizard::models {

constexpr double kNearLimitFraction = 0.9;

// Used / limit in [0, ∞), or -1 when the figure or the limit is not known.
double cpuFraction(const client::MetricSnapshot& latest, const client::MetricLimits& limits);
double memoryFraction(const client::MetricSnapshot& latest, const client::MetricLimits& limits);
double diskFraction(const client::MetricSnapshot& latest, const client::MetricLimits& limits);

// One sentence per limit the sandbox is near ("Memory at 93 % of its 512 MB limit"); empty
// when none is.
QStringList nearLimitWarnings(const client::MetricSnapshot& latest,
                              const client::MetricLimits& limits);

// "0.52 cores", "1.0 core"; "–" when unknown.
QString formatCores(double cores);
// "1.5 MB/s"; "–" when unknown.
QString formatRate(double bytesPerSecond);

} // namespace lizard::models
