#include "runtime/agenttool.h"

#include "runtime/procinfo.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace lizard::runtime {

std::string findAgentBinary()
{
    if (const char* env = std::getenv("LIZARD_AGENT"); env && *env)
        return env;
    return selfExeDir() + "/lizard-agent";
}

namespace {

Error toolError(const std::string& message)
{
    return Error{ErrorKind::Internal, "SANDBOX_START_FAILED", message};
}

} // namespace

Result<SpawnedTool> spawnAgentTool(const std::string& agentPath, const std::string& mode,
                                   const nlohmann::json& config,
                                   const std::vector<std::string>& prefix)
{
    int in[2], out[2];
    if (::pipe2(in, O_CLOEXEC) != 0)
        return toolError(std::string("pipe: ") + std::strerror(errno));
    if (::pipe2(out, O_CLOEXEC) != 0) {
        ::close(in[0]);
        ::close(in[1]);
        return toolError(std::string("pipe: ") + std::strerror(errno));
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_addclosefrom_np(&actions, 3); // as runHostCommand: stdio only
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    std::vector<std::string> args = prefix;
    args.push_back(agentPath);
    args.push_back(mode);
    std::vector<char*> argv;
    for (auto& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    int rc = posix_spawn(&pid, args.front().c_str(), &actions, &attr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    ::close(in[0]);
    ::close(out[1]);
    if (rc != 0) {
        ::close(in[1]);
        ::close(out[0]);
        return toolError("cannot run " + agentPath + ": " + std::strerror(rc));
    }
    std::string text = config.dump();
    const char* p = text.data();
    std::size_t left = text.size();
    while (left > 0) {
        ssize_t n = ::write(in[1], p, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        p += n;
        left -= std::size_t(n);
    }
    ::close(in[1]);
    return SpawnedTool{pid, out[0]};
}

Result<nlohmann::json> runAgentTool(const std::string& agentPath, const std::string& mode,
                                    const nlohmann::json& config, int timeoutMs,
                                    const std::vector<std::string>& prefix, std::string* rest)
{
    auto spawned = spawnAgentTool(agentPath, mode, config, prefix);
    if (!spawned)
        return spawned.error();
    const pid_t pid = spawned->pid;
    const int outFd = spawned->out;
    std::string line;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    bool timedOut = false;
    for (;;) {
        auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      deadline - std::chrono::steady_clock::now())
                      .count();
        if (ms <= 0) {
            timedOut = true;
            break;
        }
        pollfd pfd{outFd, POLLIN, 0};
        int r = ::poll(&pfd, 1, int(ms));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            timedOut = r == 0;
            break;
        }
        char buf[65536];
        ssize_t n = ::read(outFd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        line.append(buf, std::size_t(n));
        // Only the new bytes are searched: a long answer (a sandbox's changes) comes in
        // thousands of reads.
        if (!rest && std::memchr(buf, '\n', std::size_t(n)) != nullptr)
            break;
    }
    ::close(outFd);
    if (timedOut)
        ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (timedOut)
        return toolError("lizard-agent " + mode + " timed out");
    const std::size_t newline = line.find('\n');
    if (rest)
        *rest = newline == std::string::npos ? std::string() : line.substr(newline + 1);
    auto reply = nlohmann::json::parse(line.substr(0, newline), nullptr, false);
    if (!reply.is_object())
        return toolError("lizard-agent " + mode + " failed (status " + std::to_string(status) +
                         ")");
    if (!reply.value("ok", false))
        return toolError(reply.value("error", std::string("lizard-agent failed")));
    return reply;
}

} // namespace lizard::runtime
