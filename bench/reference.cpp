#include "reference.h"

#include "stats.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace lizard::bench {

namespace {

// Spawns argv with stdout to `outFd` (or /dev/null when -1); returns the pid or -1.
pid_t spawn(const std::vector<std::string>& argv, int outFd, std::string& error)
{
    std::vector<char*> args;
    for (const std::string& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (outFd >= 0)
        posix_spawn_file_actions_adddup2(&actions, outFd, STDOUT_FILENO);
    else
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    pid_t pid = -1;
    const int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
        error = argv[0] + ": " + std::strerror(rc);
        return -1;
    }
    return pid;
}

bool succeeded(pid_t pid, const std::string& what, std::string& error)
{
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return true;
    error = what + " failed (wait status " + std::to_string(status) + ")";
    return false;
}

} // namespace

ReferenceResult medianRunMs(const std::vector<std::string>& argv, int runs)
{
    ReferenceResult r;
    std::vector<double> samples;
    for (int i = 0; i < runs; ++i) {
        const auto start = Clock::now();
        const pid_t pid = spawn(argv, -1, r.error);
        if (pid < 0 || !succeeded(pid, argv[0], r.error))
            return r;
        samples.push_back(msSince(start));
    }
    r.value = median(samples);
    return r;
}

ReferenceResult pipeThroughput(const std::string& shellCommand)
{
    ReferenceResult r;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        r.error = std::string("pipe: ") + std::strerror(errno);
        return r;
    }
    const auto start = Clock::now();
    const pid_t pid = spawn({"/bin/sh", "-c", shellCommand}, fds[1], r.error);
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        return r;
    }
    std::vector<char> buf(1 << 16);
    for (;;) {
        const ssize_t n = read(fds[0], buf.data(), buf.size());
        if (n > 0)
            r.bytes += std::uint64_t(n);
        else if (n == 0 || errno != EINTR)
            break;
    }
    close(fds[0]);
    const double ms = msSince(start);
    if (succeeded(pid, "sh -c " + shellCommand, r.error))
        r.value = double(r.bytes) / 1e6 / (ms / 1000.0);
    return r;
}

} // namespace lizard::bench
