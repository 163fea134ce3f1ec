#pragma once
// Resource metrics of lizard-local (a local extension, server/api/DECISIONS.md "Metrics"):
// GET /api/sandboxes/{id}/metrics answers the SDK's ServiceMetrics series plus pids, disk,
// the sandbox's limits and its lifecycle events; GET /api/projects/{ref}/metrics the latest
// figures of every running sandbox of a project.

#include <QList>
#include <QString>
#include <cmath>
#include <limits>

namespace lizard::client {

// One figure at one time: cpu in cores, memory/disk in bytes, pids in tasks, rates in bytes
// per second.
struct MetricValue
{
    qint64 t = 0; // unix ms
    double value = 0;
};

// The figures of one sample; a figure the server did not give is NaN.
struct MetricSnapshot
{
    static constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();
    qint64 t = 0;
    double cpu = kUnknown, memory = kUnknown, pids = kUnknown, disk = kUnknown;
    double networkRx = kUnknown, networkTx = kUnknown, diskRead = kUnknown, diskWrite = kUnknown;
    static bool known(double v) { return !std::isnan(v); }
};

// What bounds the sandbox; 0 where nothing does.
struct MetricLimits
{
    double cpus = 0; // only where cgroups enforce it
    qint64 memoryMb = 0;
    QString memoryKind; // "cgroup": the sandbox's total; "process": each process's data
    qint64 pids = 0;
    qint64 diskGb = 0;
};

// A lifecycle event on the time axis: created, paused, resumed, snapshot, fork, timeout, oom.
struct MetricEvent
{
    qint64 t = 0;
    QString kind;
    QString message;
};

struct SandboxMetrics
{
    QString sandboxId;
    QString range;  // 10m, 1h, 6h or 24h
    QString status; // running, paused
    QString source; // "cgroup", "proc", or empty before the first sample
    int intervalMs = 0;
    QList<MetricValue> cpu, memory, pids, disk, networkRx, networkTx, diskRead, diskWrite;
    MetricLimits limits;
    QList<MetricEvent> events;
    MetricSnapshot latest; // t == 0: no sample yet
};

struct ProjectSandboxMetrics
{
    QString sandboxId;
    QString status;
    QString templateName;
    MetricLimits limits;
    MetricSnapshot latest; // t == 0: no sample yet
};

struct ProjectMetrics
{
    QString projectId;
    int running = 0;
    int paused = 0;
    MetricSnapshot totals;
    double cpusLimit = 0;
    qint64 memoryMbLimit = 0;
    QList<ProjectSandboxMetrics> sandboxes; // the biggest users first
};

} // namespace lizard::client
