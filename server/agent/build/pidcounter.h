#pragma once
// A fork or a restore starts with its source's files but none of its processes, so pid files
// it inherits (a Jupyter kernel's, a web server's) name pids that a fresh pid namespace hands
// out again from 2: a program that checks "is the pid in my pid file alive?" then finds some
// unrelated process of the copy and trusts it (the official SDKs' code runner does, and then
// talks to a kernel that is not there). PID 1 of a copy therefore starts its namespace's pid
// counter past every pid its source had in use.

namespace lizard::agent {

// PID 1, before it starts anything: writes /proc/sys/kernel/ns_last_pid (of the caller's pid
// namespace; PID 1 has CAP_SYS_ADMIN in its owner user namespace) to `floor`. Skipped when
// `floor` is 0 or so close to pid_max that the counter would wrap at once. Best effort: a
// failure is reported on stderr (the agent log), since the copy works without it.
void startPidsAfter(int floor);

} // namespace lizard::agent
