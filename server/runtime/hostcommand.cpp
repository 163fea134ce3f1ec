#include "runtime/hostcommand.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace lizard::runtime {

std::string findHostProgram(const std::string& name)
{
    for (const char* dir : {"/usr/sbin", "/sbin", "/usr/bin", "/bin"}) {
        const std::string path = std::string(dir) + "/" + name;
        if (::access(path.c_str(), X_OK) == 0)
            return path;
    }
    return {};
}

Status runHostCommand(const std::vector<std::string>& argv, int timeoutMs, const std::string& code)
{
    if (argv.empty())
        return Error{ErrorKind::Internal, code, "no command"};
    int out[2];
    if (::pipe2(out, O_CLOEXEC) != 0)
        return Error{ErrorKind::Internal, code, std::string("pipe: ") + std::strerror(errno)};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_adddup2(&actions, out[1], 2);
    // Nothing else of lizard-local's: Asio opens its sockets without close-on-exec, and a
    // listener held by a child outliving a killed server keeps the port from the next one.
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    std::vector<char*> args;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    const int err = ::posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(out[1]);
    if (err != 0) {
        ::close(out[0]);
        return Error{ErrorKind::Internal, code, argv[0] + ": " + std::strerror(err)};
    }
    std::string output;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    bool timedOut = false;
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                              deadline - std::chrono::steady_clock::now())
                              .count();
        if (left <= 0) {
            timedOut = true;
            break;
        }
        pollfd p{out[0], POLLIN, 0};
        const int ready = ::poll(&p, 1, int(left));
        if (ready < 0 && errno != EINTR)
            break;
        if (ready <= 0)
            continue;
        char buf[4096];
        const ssize_t n = ::read(out[0], buf, sizeof buf);
        if (n == 0)
            break;
        if (n > 0)
            output.append(buf, size_t(n));
        if (output.size() > 65536)
            output.erase(0, output.size() - 4096);
    }
    ::close(out[0]);
    if (timedOut)
        ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!timedOut && WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return okStatus();
    if (output.size() > 600)
        output = "..." + output.substr(output.size() - 600);
    std::string how = timedOut            ? "timed out"
                      : WIFEXITED(status) ? "exited with " + std::to_string(WEXITSTATUS(status))
                                          : "was killed";
    return Error{ErrorKind::Internal, code,
                 argv[0] + " " + how + (output.empty() ? "" : ": " + output)};
}

} // namespace lizard::runtime
