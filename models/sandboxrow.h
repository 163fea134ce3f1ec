#pragma once
// How one sandbox is shown in the sandbox table: columns and their texts.

#include "client/types.h"

#include <QDateTime>
#include <QString>

namespace lizard::models {

namespace SandboxColumn {
// Cpu and Memory show the latest metrics as small bars (SandboxTableModel::UsageRole).
enum : int { Id, Template, Size, Status, Started, TimeLeft, Cpu, Memory, Metadata, Count };
} // namespace SandboxColumn

// Header text of a column.
QString sandboxColumnTitle(int column);

// Display text of one cell; `now` is used by the time columns.
QString sandboxCellText(const client::SandboxInfo& info, int column, const QDateTime& now);

// What the sandbox's limits really are, from what the server reports (cpus/memoryMb only
// when enforced; lizard-local's "limits" says how): "medium · 2 vCPU · 8 GB · 1024 pids"
// (cgroups), "medium · 1024 pids · 8 GB per process · cpu not limited" (rlimits only),
// "medium · limits not enforced"; "medium · 4 vCPU · 8 GB" from a server without "limits";
// then the disk when bounded: " · Disk: 10 GB", " · Disk: 10 GB (watched)" (measured by an
// ordinary user's lizard-local), " · Disk: 10 GB (full)" (watched and over its size).
QString sandboxSizeText(const client::SandboxInfo& info);
// The same without the disk.
QString sandboxLimitsText(const client::SandboxInfo& info);
// The Size column's tooltip: the same in a sentence ("No limits: cgroups are not writable...").
QString sandboxLimitsToolTip(const client::SandboxInfo& info);
// The same without the disk.
QString sandboxProcessLimitsToolTip(const client::SandboxInfo& info);

// The status badge's kind: "ending" (running with at most kEndingSoonS left), "running",
// "paused", or "other" (killed, pausing, resuming, ...).
constexpr int kEndingSoonS = 300;
QString sandboxBadge(const client::SandboxInfo& info, const QDateTime& now);

// Tooltips of the time columns: the absolute local time of what the cell says relatively.
QString sandboxTimeToolTip(const client::SandboxInfo& info, int column);

// True if the two infos look different in any column except time left.
bool sandboxRowDiffers(const client::SandboxInfo& a, const client::SandboxInfo& b);

} // namespace lizard::models
