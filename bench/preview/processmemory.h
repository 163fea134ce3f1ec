#pragma once
// Resident memory of a process and of its descendants (QtWebEngine runs its renderer and GPU
// work in child processes), read from /proc. Shared pages count once per process.

#include <QList>

namespace lizard::bench {

qint64 rssKb(qint64 pid);                 // VmRSS of one process; 0 when unknown
QList<qint64> descendantsOf(qint64 pid);  // children, grandchildren, …
qint64 treeRssKb(qint64 pid);             // pid and all its descendants
bool libraryMapped(const char* namePart); // in this process, e.g. "libQt6WebEngineCore"

} // namespace lizard::bench
