#pragma once
// How one sandbox is shown in the sandbox table: columns and their texts.

#include "client/types.h"

#include <QDateTime>
#include <QString>

namespace lizard::models {

namespace SandboxColumn {
enum : int { Id, Template, Size, Status, Started, TimeLeft, Metadata, Count };
}

// Header text of a column.
QString sandboxColumnTitle(int column);

// Display text of one cell; `now` is used by the time columns.
QString sandboxCellText(const client::SandboxInfo& info, int column, const QDateTime& now);

// "medium · 4 vCPU · 8 GB" when the server enforces limits, "medium · limits not enforced"
// otherwise (the server reports cpus/memoryMb only when it enforces them).
QString sandboxSizeText(const client::SandboxInfo& info);

// True if the two infos look different in any column except time left.
bool sandboxRowDiffers(const client::SandboxInfo& a, const client::SandboxInfo& b);

} // namespace lizard::models
