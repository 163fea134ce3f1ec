#pragma once
// Small facts about host processes read from /proc.

#include <optional>
#include <string>
#include <sys/types.h>

namespace lizard::runtime {

struct ProcStat
{
    char state = '?';
    unsigned long flags = 0;          // field 9, the kernel's PF_* flags
    long threads = 0;                 // field 20
    unsigned long long startTime = 0; // field 22, clock ticks since boot
};

std::optional<ProcStat> readProcStat(pid_t pid);

// True if `pid` runs (neither exiting nor a zombie) and started at `startTime`.
bool processMatches(pid_t pid, unsigned long long startTime);

// True until `pid` (started at `startTime`) has finished exiting: a PID 1 of a pid namespace
// finishes only after every process inside it is gone.
bool processRemains(pid_t pid, unsigned long long startTime);

// True if SIGSTOP waits to be delivered to `pid` (its process-wide or own pending set): it
// stops before it runs another instruction in user space, unless SIGCONT comes first.
bool stopPending(pid_t pid);

// `pid`'s number in its innermost pid namespace (the last NSpid of /proc/<pid>/status); 0 when
// it is gone or unreadable.
pid_t innermostPid(pid_t pid);

// Directory of the running executable (/proc/self/exe).
std::string selfExeDir();

} // namespace lizard::runtime
