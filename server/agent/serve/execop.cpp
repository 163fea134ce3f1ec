#include "agent/serve/execop.h"

#include "agent/serve/execenv.h"
#include "agent/serve/execspawn.h"
#include "agent/serve/frame.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace lizard::agent {

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kOutputChunk = 256 * 1024;
// After the command exited, output still in its pipes is sent; a background child that
// keeps a pipe open does not hold the answer back longer than this.
constexpr int kDrainIdleMs = 30;

} // namespace

void handleWarmRunner(FrameStream& stream, const nlohmann::json& request, AgentContext& context)
{
    auto root = lookupUser("root", context.singleUid);
    if (!root)
        return void(stream.writeError("UNKNOWN_USER", "no root user in the sandbox"));
    SpawnRequest base;
    base.user = *root;
    base.env = buildEnv(context, *root, nlohmann::json::object());
    const std::string why = context.runners.startAndWait(
        base, context.reaper, 30000, request.value("shippedRunner", std::string()));
    if (!why.empty())
        return void(stream.writeError("UNAVAILABLE", why));
    stream.writeJson({{"ok", true}});
}

void handleExec(FrameStream& stream, const nlohmann::json& req, AgentContext& context)
{
    const auto& argvJson = req.value("argv", nlohmann::json::array());
    if (!argvJson.is_array() || argvJson.empty())
        return void(
            stream.writeError("INVALID_ARGUMENT", "argv must be a non-empty array of strings"));
    SpawnRequest spawn;
    for (const auto& a : argvJson) {
        if (!a.is_string())
            return void(
                stream.writeError("INVALID_ARGUMENT", "argv must be a non-empty array of strings"));
        spawn.argv.push_back(a.get<std::string>());
    }
    nlohmann::json env = req.value("env", nlohmann::json::object());
    if (!validEnv(env))
        return void(stream.writeError("INVALID_ARGUMENT", "env must map names to strings"));
    auto user = lookupUser(req.value("user", std::string("root")), context.singleUid);
    if (!user)
        return void(stream.writeError("UNKNOWN_USER", "no such user in the sandbox: " +
                                                          req.value("user", std::string())));
    spawn.user = *user;
    spawn.env = buildEnv(context, *user, env);
    spawn.cwd = req.value("cwd", std::string());
    spawn.noFileGrowth = context.diskFull;
    spawn.oomFirst = req.value("oomScore", std::string()) != "agent";
    spawn.shippedRunner = req.value("runner", std::string()) == "shipped";
    if (spawn.cwd.empty())
        spawn.cwd = user->home;
    int timeoutMs = req.value("timeoutMs", 60000);
    if (timeoutMs <= 0)
        timeoutMs = 60000;

    bool warm = false;
    Spawned child = context.runners.spawn(spawn, context.reaper, warm);
    if (!child.errorCode.empty())
        return void(stream.writeError(child.errorCode, child.errorMessage));
    context.processes.add({child.pid, spawn.argv, spawn.cwd, unixNowMs()});
    const pid_t pid = child.pid;

    bool timedOut = false;
    bool killed = false;
    auto killTree = [&] {
        if (!killed) {
            killed = true;
            signalProcessTree(pid, SIGKILL);
        }
    };
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeoutMs);
    stream.setStallHandler(deadline, [&] {
        timedOut = true;
        killTree();
    });

    nlohmann::json started{{"ok", true}, {"pid", pid}};
    if (warm)
        started["runner"] = "warm";
    bool peerOk = stream.writeJson(started);
    std::string buffer(kOutputChunk, '\0');
    int fds[2] = {child.stdoutFd, child.stderrFd};
    bool exited = false;
    while (peerOk && (fds[0] >= 0 || fds[1] >= 0)) {
        pollfd p[4];
        nfds_t n = 0;
        int index[2] = {-1, -1};
        for (int i = 0; i < 2; ++i) {
            if (fds[i] >= 0) {
                index[i] = int(n);
                p[n++] = {fds[i], POLLIN, 0};
            }
        }
        const nfds_t sockIndex = n;
        p[n++] = {stream.fd(), POLLIN | POLLRDHUP, 0};
        const nfds_t exitIndex = n;
        if (!exited)
            p[n++] = {child.exit->eventFd(), POLLIN, 0};
        int waitMs;
        if (exited) {
            waitMs = kDrainIdleMs;
        } else if (timedOut) {
            waitMs = -1;
        } else {
            auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now())
                    .count();
            waitMs = left > 0 ? int(left) : 0;
        }
        int r = ::poll(p, n, waitMs);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0) {
            if (exited)
                break; // idle after exit: stop waiting for background writers
            timedOut = true;
            killTree();
            continue;
        }
        if (p[sockIndex].revents & (POLLIN | POLLRDHUP | POLLHUP | POLLERR)) {
            // The client sends nothing after the request: readable means it went away.
            peerOk = false;
            break;
        }
        if (!exited && (p[exitIndex].revents & POLLIN)) {
            exited = true;
        }
        for (int i = 0; i < 2; ++i) {
            if (index[i] < 0 || !(p[index[i]].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t got = ::read(fds[i], buffer.data(), buffer.size());
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0) {
                ::close(fds[i]);
                fds[i] = -1;
                continue;
            }
            if (!stream.writeFrame(i == 0 ? kFrameStdout : kFrameStderr, buffer.data(),
                                   std::size_t(got))) {
                peerOk = false;
                break;
            }
        }
    }
    stream.clearStallHandler();
    for (int fd : fds)
        if (fd >= 0)
            ::close(fd);
    if (!peerOk) {
        killTree(); // the client left before the end: nothing may keep running for nobody
    }
    // Wait for the exit status (the tree is dead or the pipes closed).
    pollfd e{child.exit->eventFd(), POLLIN, 0};
    while (!child.exit->exited()) {
        auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (!timedOut && left <= 0) {
            timedOut = true;
            killTree();
        }
        ::poll(&e, 1, timedOut ? -1 : int(std::max<long long>(left, 0)));
    }
    context.processes.remove(pid);
    if (!peerOk)
        return;
    int status = child.exit->status();
    int exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (timedOut)
        exitCode = 124;
    stream.writeJson({{"exitCode", exitCode}, {"timedOut", timedOut}});
}

} // namespace lizard::agent
