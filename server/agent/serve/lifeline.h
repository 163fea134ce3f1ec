#pragma once
// PID 1's end of its quota file system daemon's lifeline (agent/quotafs/quotafsdaemon.h): the
// daemon holds the only write end of the pipe, so the read end reports end of file when the
// daemon is gone. The sandbox's upper layers live on that daemon's mount: without it every file
// operation of the sandbox fails (ENOTCONN), so PID 1 says so in agent.log and ends the sandbox
// rather than leave it running broken.

namespace lizard::agent {

// Starts a thread that waits on `fd`; false if no thread could be started.
bool watchLifeline(int fd);

} // namespace lizard::agent
