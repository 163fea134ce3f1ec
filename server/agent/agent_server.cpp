#include "agent/agent_server.h"

#include "agent/connect_op.h"
#include "agent/exec_op.h"
#include "agent/file_ops.h"
#include "agent/frame.h"
#include "agent/frame_stream.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <system_error>
#include <sys/socket.h>
#include <sys/time.h>
#include <thread>
#include <unistd.h>

namespace lizard::agent {

namespace {

int signalNumber(const std::string& name)
{
    static const std::pair<const char*, int> table[] = {
        {"SIGTERM", SIGTERM}, {"SIGKILL", SIGKILL}, {"SIGINT", SIGINT}, {"SIGHUP", SIGHUP},
        {"SIGQUIT", SIGQUIT}, {"SIGUSR1", SIGUSR1}, {"SIGUSR2", SIGUSR2}, {"SIGSTOP", SIGSTOP},
        {"SIGCONT", SIGCONT}};
    for (const auto& [n, s] : table)
        if (name == n || name == n + 3)
            return s;
    return 0;
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
        return void(stream.writeError("NO_SUCH_PROCESS", "no running command with pid " + std::to_string(pidIt->get<long long>())));
    stream.writeJson({{"ok", true}});
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
        return void(stream.writeError("INVALID_ARGUMENT", "request must be a JSON object with an op"));
    const std::string op = req["op"];
    try {
        if (op == "ping")
            stream.writeJson({{"ok", true}});
        else if (op == "exec")
            handleExec(stream, req, context);
        else if (op == "processes")
            stream.writeJson({{"ok", true}, {"processes", context.processes.list()}});
        else if (op == "signal")
            handleSignal(stream, req, context);
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
        else
            stream.writeError("INVALID_ARGUMENT", "unknown op: " + op);
    } catch (const std::exception& e) {
        // Wrongly typed fields (json type_error) end up here.
        stream.writeError("INVALID_ARGUMENT", e.what());
    }
}

// No thread to spare (the sandbox is at its pids or memory limit): this connection is
// answered here, on the accept thread, within a second. A ping gets its answer, so the server
// does not take a sandbox at its limit for a dead one; anything else is refused and says why.
void serveWithoutThread(int fd)
{
    const timeval timeout{1, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
    FrameStream stream(fd);
    char type = 0;
    std::string payload;
    if (!stream.readFrame(type, payload) || type != kFrameJson)
        return;
    const nlohmann::json req = nlohmann::json::parse(payload, nullptr, false);
    if (req.is_object() && req.value("op", std::string()) == "ping")
        stream.writeJson({{"ok", true}});
    else
        stream.writeError("RESOURCE_EXHAUSTED",
                          "the sandbox is at its process or memory limit: the agent cannot start a "
                          "thread for this request");
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
                std::fprintf(stderr, "lizard-agent: the listening socket is gone: %s\n", std::strerror(err));
                ::_exit(1);
            }
            if (err != EINTR && err != ECONNABORTED) {
                std::fprintf(stderr, "lizard-agent: accept: %s\n", std::strerror(err));
                ::usleep(10000);
            }
            continue;
        }
        try {
            std::thread([fd, &context] {
                try {
                    serve(fd, context);
                } catch (...) {
                    // Never let one connection take PID 1 (and so the sandbox) down.
                }
                ::close(fd);
            }).detach();
        } catch (const std::system_error&) {
            try {
                serveWithoutThread(fd);
            } catch (...) {
            }
            ::close(fd);
        }
    }
}

} // namespace lizard::agent
