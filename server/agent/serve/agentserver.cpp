#include "agent/serve/agentserver.h"

#include "agent/serve/connectop.h"
#include "agent/serve/execop.h"
#include "agent/serve/fileops.h"
#include "agent/serve/frame.h"
#include "agent/serve/framestream.h"
#include "agent/serve/pathguard.h"
#include "agent/serve/processtree.h"
#include "agent/serve/ptyop.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/statvfs.h>
#include <sys/time.h>
#include <system_error>
#include <thread>
#include <unistd.h>

namespace lizard::agent {

namespace {

int signalNumber(const std::string& name)
{
    static const std::pair<const char*, int> table[] = {
        {"SIGTERM", SIGTERM}, {"SIGKILL", SIGKILL}, {"SIGINT", SIGINT},
        {"SIGHUP", SIGHUP},   {"SIGQUIT", SIGQUIT}, {"SIGUSR1", SIGUSR1},
        {"SIGUSR2", SIGUSR2}, {"SIGSTOP", SIGSTOP}, {"SIGCONT", SIGCONT}};
    for (const auto& [n, s] : table)
        if (name == n || name == n + 3)
            return s;
    return 0;
}

// A ping from lizard-local may renew the lease (lease.h): {"op":"ping","lease":{...}}, and
// say whether the disk watch found the layer over its size: {"op":"ping","diskFull":true}.
void renewLease(const nlohmann::json& req, AgentContext& context)
{
    if (const auto full = req.find("diskFull"); full != req.end() && full->is_boolean())
        context.diskFull = full->get<bool>();
    const auto it = req.find("lease");
    if (it == req.end() || !it->is_object())
        return;
    const auto endAt = it->find("endAtMs"), grace = it->find("graceMs");
    if (endAt != it->end() && endAt->is_number_integer() && grace != it->end() &&
        grace->is_number_integer())
        context.lease.renew(endAt->get<std::int64_t>(), grace->get<std::int64_t>());
}

// The claim's envs for a program the pool started before the claim (a pre-started kernel),
// which reads and deletes the file. Owner-only, and never through a link: the pool's own
// program made the directory, and nothing of a user's has run in the copy yet.
std::string writeEnvsFile(const std::string& path, const nlohmann::json& envs)
{
    if (path.rfind("/tmp/.lizard-code/", 0) != 0 || path.find("/../") != std::string::npos)
        return "envsFile must be in /tmp/.lizard-code/";
    const int fd = openNoMagic(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return path + ": " + std::strerror(errno);
    const std::string text = envs.dump();
    const bool written = ::write(fd, text.data(), text.size()) == ssize_t(text.size());
    ::close(fd);
    return written ? std::string() : path + ": short write";
}

// A warm copy handed to its caller: the caller's envs replace the (empty) ones it started with,
// and its lease becomes the caller's deadline.
void handleClaim(FrameStream& stream, const nlohmann::json& req, AgentContext& context)
{
    const auto envs = req.find("envs");
    if (envs == req.end() || !envs->is_object())
        return void(stream.writeError("INVALID_ARGUMENT", "claim needs an envs object"));
    std::map<std::string, std::string> values;
    for (const auto& [k, v] : envs->items()) {
        if (!v.is_string())
            return void(stream.writeError("INVALID_ARGUMENT", "env " + k + " is not a string"));
        values[k] = v.get<std::string>();
    }
    if (const auto file = req.find("envsFile");
        file != req.end() && file->is_string() && !values.empty()) {
        if (std::string e = writeEnvsFile(file->get<std::string>(), *envs); !e.empty())
            return void(stream.writeError("INVALID_ARGUMENT", e));
    }
    context.envs.set(std::move(values));
    renewLease(req, context);
    stream.writeJson({{"ok", true}});
}

void handleSignal(FrameStream& stream, const nlohmann::json& req, AgentContext& context)
{
    auto pidIt = req.find("pid");
    if (pidIt == req.end() || !pidIt->is_number_integer() || pidIt->get<long long>() <= 1)
        return void(stream.writeError("INVALID_ARGUMENT", "pid must be a process id"));
    std::string name = req.value("signal", std::string("SIGTERM"));
    int sig = signalNumber(name);
    if (sig == 0)
        return void(stream.writeError("INVALID_ARGUMENT", "unknown signal: " + name));
    if (!context.processes.signalTree(pid_t(pidIt->get<long long>()), sig))
        return void(
            stream.writeError("NO_SUCH_PROCESS", "no running command with pid " +
                                                     std::to_string(pidIt->get<long long>())));
    stream.writeJson({{"ok", true}});
}

void handleSignalProcess(FrameStream& stream, const nlohmann::json& req)
{
    auto pidIt = req.find("pid");
    if (pidIt == req.end() || !pidIt->is_number_integer() || pidIt->get<long long>() <= 0 ||
        pidIt->get<long long>() > 4194304)
        return void(stream.writeError("INVALID_ARGUMENT", "pid must be a process id"));
    std::string name = req.value("signal", std::string("SIGTERM"));
    int sig = signalNumber(name);
    if (sig == 0)
        return void(stream.writeError("INVALID_ARGUMENT", "unknown signal: " + name));
    std::string message;
    const std::string code = signalSandboxProcess(pid_t(pidIt->get<long long>()), sig,
                                                  req.value("tree", false), message);
    if (!code.empty())
        return void(stream.writeError(code, message));
    stream.writeJson({{"ok", true}});
}

// Requests served at once, each on its own thread (an exec holds its thread until the
// command ends). lizard-local keeps at most 32 commands and 16 other calls in flight per
// sandbox; the rest is room for its liveness pings and for calls it gave up on that the
// agent has not noticed yet. At the cap, requests are answered on the accepting thread.
constexpr int kMaxServing = 64;
// A peer that sends nothing (or stops in the middle of a file) must not hold a thread.
constexpr int kReceiveTimeoutS = 60;
// At the cap, how long the accepting thread waits for a request before dropping it.
constexpr int kInlineRequestWaitMs = 1000;

std::atomic<int> g_serving{0};

void setReceiveTimeout(int fd, int seconds)
{
    timeval tv{seconds, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
}

// At the cap, or with no thread to spare: answers a ping (or lizard-local would take the
// sandbox for lost), refuses the rest with `code`. Never blocks the accept loop for long.
void answerAtCap(int fd, AgentContext& context, const char* code, const std::string& why)
{
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, kInlineRequestWaitMs) != 1)
        return;
    setReceiveTimeout(fd, 1);
    FrameStream stream(fd);
    char type = 0;
    std::string payload;
    if (!stream.readFrame(type, payload) || type != kFrameJson)
        return;
    const nlohmann::json req = nlohmann::json::parse(payload, nullptr, false);
    if (req.is_object() && req.value("op", std::string()) == "ping") {
        renewLease(req, context);
        stream.writeJson({{"ok", true}});
        return;
    }
    stream.writeError(code, why);
}

void serve(int fd, AgentContext& context)
{
    FrameStream stream(fd);
    char type = 0;
    std::string payload;
    if (!stream.readFrame(type, payload) || type != kFrameJson)
        return;
    nlohmann::json req = nlohmann::json::parse(payload, nullptr, false);
    if (!req.is_object() || !req.contains("op") || !req["op"].is_string())
        return void(
            stream.writeError("INVALID_ARGUMENT", "request must be a JSON object with an op"));
    const std::string op = req["op"];
    try {
        if (op == "ping") {
            renewLease(req, context);
            nlohmann::json reply{{"ok", true}};
            // lizard-local's metrics ask what the root file system holds: where it is a quota
            // file system, it is mounted only in here.
            struct statvfs st
            {
            };
            if (req.value("statfs", false) && ::statvfs("/", &st) == 0 && st.f_blocks >= st.f_bfree)
                reply["usedBytes"] = std::uint64_t(st.f_blocks - st.f_bfree) * st.f_frsize;
            stream.writeJson(reply);
        } else if (op == "claim")
            handleClaim(stream, req, context);
        else if (op == "exec")
            handleExec(stream, req, context);
        else if (op == "warmRunner")
            handleWarmRunner(stream, req, context);
        else if (op == "processes")
            stream.writeJson({{"ok", true}, {"processes", context.processes.list()}});
        else if (op == "signal")
            handleSignal(stream, req, context);
        else if (op == "processTree") {
            nlohmann::json reply = readProcessTree(context.processes);
            reply["ok"] = true;
            stream.writeJson(reply);
        } else if (op == "signalProcess")
            handleSignalProcess(stream, req);
        else if (op == "read")
            handleRead(stream, req, context);
        else if (op == "write")
            handleWrite(stream, req, context);
        else if (op == "list")
            handleList(stream, req);
        else if (op == "stat")
            handleStat(stream, req);
        else if (op == "remove")
            handleRemove(stream, req, context);
        else if (op == "move")
            handleMove(stream, req, context);
        else if (op == "mkdir")
            handleMkdir(stream, req, context);
        else if (op == "connect")
            handleConnect(stream, req);
        else if (op == "pty")
            handlePty(stream, req, context);
        else if (WatchHub::isWatchOp(op))
            context.watches.serve(stream, req);
        else
            stream.writeError("INVALID_ARGUMENT", "unknown op: " + op);
    } catch (const std::exception& e) {
        // Wrongly typed fields (json type_error) end up here.
        stream.writeError("INVALID_ARGUMENT", e.what());
    }
}

} // namespace

void runAgentServer(int listenFd, AgentContext& context)
{
    context.reaper.start();
    for (;;) {
        int fd = ::accept4(listenFd, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0) {
            int err = errno;
            if (err == EBADF || err == EINVAL || err == ENOTSOCK) {
                std::fprintf(stderr, "lizard-agent: the listening socket is gone: %s\n",
                             std::strerror(err));
                ::_exit(1);
            }
            if (err != EINTR && err != ECONNABORTED) {
                std::fprintf(stderr, "lizard-agent: accept: %s\n", std::strerror(err));
                ::usleep(10000);
            }
            continue;
        }
        if (g_serving.load() >= kMaxServing) {
            // The accept loop is the only place that raises g_serving, so this cannot overshoot.
            answerAtCap(fd, context, "BUSY",
                        "the agent serves " + std::to_string(kMaxServing) +
                            " requests at once; retry later");
            ::close(fd);
            continue;
        }
        setReceiveTimeout(fd, kReceiveTimeoutS);
        ++g_serving;
        try {
            std::thread([fd, &context] {
                try {
                    serve(fd, context);
                } catch (...) {
                    // Never let one connection take PID 1 (and so the sandbox) down.
                }
                ::close(fd);
                --g_serving;
            }).detach();
        } catch (const std::system_error&) {
            // No thread (the sandbox is at its pids or memory limit): answer what can be
            // answered here (a ping), refuse the rest.
            --g_serving;
            try {
                answerAtCap(fd, context, "RESOURCE_EXHAUSTED",
                            "the sandbox is at its process or memory limit: the agent cannot start "
                            "a thread "
                            "for this request");
            } catch (...) {
            }
            ::close(fd);
        }
    }
}

} // namespace lizard::agent
