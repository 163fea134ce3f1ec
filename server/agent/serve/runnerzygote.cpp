#include "agent/serve/runnerzygote.h"

#include "agent/serve/fdpassing.h"
#include "agent/serve/runnerzygotesource.h"

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace lizard::agent {

namespace {

// The runner sources the zygote serves, by size and 64-bit FNV-1a hash of their text. Each was
// taken from the SDK's own exec (its argv[2]) and its event streams compared with a fresh
// python3's (tests/compat, runner_fastpath). The hash only picks the sources to serve warm: a
// sandbox that forged one would run its own code in its own warm python3, nothing more.
struct VerifiedRunner
{
    const char* sdk;
    std::size_t size;
    std::uint64_t fnv1a;
};
constexpr VerifiedRunner kVerifiedSdkRunners[] = {
    {"@lizard-build/sdk 1.0.23", 10298, 0x53b3cac7642e481cULL},
};

constexpr int kAnswerTimeoutMs = 5000;

std::uint64_t fnv1a(const std::string& text)
{
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char c : text)
        h = (h ^ c) * 0x100000001b3ULL;
    return h;
}

bool fastPathOff(const std::map<std::string, std::string>& env)
{
    const auto it = env.find("LIZARD_RUNNER_FASTPATH");
    return it != env.end() && it->second == "0";
}

// The parent pid in /proc/<pid>/stat (0 when unreadable).
pid_t parentOf(pid_t pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto close = stat.rfind(')');
    if (close == std::string::npos || close + 4 > stat.size())
        return 0;
    return pid_t(std::atol(stat.c_str() + close + 4)); // ") S <ppid>"
}

// One message of the zygote, within `timeoutMs`; null when none came.
nlohmann::json receive(int socket, int timeoutMs)
{
    pollfd p{socket, POLLIN, 0};
    int r;
    do
        r = ::poll(&p, 1, timeoutMs);
    while (r < 0 && errno == EINTR);
    if (r <= 0)
        return nullptr;
    char buf[256];
    const ssize_t n = ::recv(socket, buf, sizeof buf, MSG_DONTWAIT);
    if (n <= 0)
        return nullptr;
    return nlohmann::json::parse(std::string(buf, std::size_t(n)), nullptr, false);
}

} // namespace

bool RunnerZygote::recognizes(const std::vector<std::string>& argv)
{
    if (argv.size() != 4 || argv[0] != "python3" || argv[1] != "-c")
        return false;
    for (const auto& v : kVerifiedSdkRunners)
        if (argv[2].size() == v.size && fnv1a(argv[2]) == v.fnv1a)
            return true;
    return false;
}

RunnerZygote::~RunnerZygote()
{
    std::lock_guard lock(m_mutex);
    stopLocked();
}

Spawned RunnerZygote::spawn(const SpawnRequest& request, Reaper& reaper, bool& warm)
{
    warm = false;
    const bool sdkRunner = recognizes(request.argv);
    if (!(sdkRunner || (request.shippedRunner && request.argv.size() == 4 &&
                        request.argv[0] == "python3" && request.argv[1] == "-c")) ||
        request.user.uid != 0 || request.user.gid != 0 || !request.oomFirst ||
        fastPathOff(request.env) || !isDirectory(request.cwd))
        return spawnCommand(request, reaper);
    std::unique_lock lock(m_mutex);
    if (m_state == State::Off)
        startLocked(request, reaper);
    if (m_state == State::Starting)
        pollReadyLocked(0);
    Spawned out;
    if (m_state == State::Ready && spawnWarmLocked(request, reaper, out)) {
        warm = true;
        return out;
    }
    if (m_state == State::Ready)
        stopLocked(); // it broke: the next verified run starts a new one
    lock.unlock();
    return spawnCommand(request, reaper);
}

std::string RunnerZygote::startAndWait(const SpawnRequest& base, Reaper& reaper, int timeoutMs,
                                       const std::string& shippedRunner)
{
    std::lock_guard lock(m_mutex);
    if (m_state == State::Off)
        startLocked(base, reaper);
    if (m_state == State::Starting && !pollReadyLocked(timeoutMs)) {
        stopLocked();
        return "the runner zygote did not become ready (python3 with jupyter_client?)";
    }
    if (m_state != State::Ready)
        return "the runner zygote could not start";
    if (!shippedRunner.empty()) {
        const std::string text = nlohmann::json{{"compile", shippedRunner}}.dump();
        const bool sent =
            ::send(m_socket, text.data(), text.size(), MSG_NOSIGNAL) == ssize_t(text.size());
        const nlohmann::json answer = sent ? receive(m_socket, timeoutMs) : nlohmann::json();
        if (!answer.is_object()) {
            stopLocked(); // out of step with its answers: the next runner exec starts a new one
            return "the runner zygote did not answer";
        }
        if (!answer.value("ok", false)) // it still serves, compiling at the first request
            return "the runner zygote could not compile the shipped runner: " +
                   answer.value("error", std::string());
    }
    return {};
}

void RunnerZygote::startLocked(const SpawnRequest& base, Reaper& reaper)
{
    int pair[2];
    if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0)
        return;
    SpawnRequest req;
    req.argv = {"python3", "-c", runnerZygoteSource()};
    req.env = base.env; // the zygote's own: each child takes its exec's
    req.cwd = "/";
    req.user = base.user;
    req.passFd = pair[1];
    Spawned z = spawnCommand(req, reaper);
    ::close(pair[1]);
    if (!z.errorCode.empty()) {
        ::close(pair[0]);
        return;
    }
    // It never writes to them: its children get pipes of their own.
    ::close(z.stdoutFd);
    ::close(z.stderrFd);
    m_socket = pair[0];
    m_pid = z.pid;
    m_exit = z.exit;
    m_state = State::Starting;
}

bool RunnerZygote::pollReadyLocked(int timeoutMs)
{
    const nlohmann::json hello = receive(m_socket, timeoutMs);
    if (hello.is_object() && hello.value("ready", false)) {
        m_state = State::Ready;
        return true;
    }
    if (!hello.is_null() || (m_exit && m_exit->exited()))
        stopLocked(); // an answer that is not "ready", or it ended: try again next time
    return false;
}

void RunnerZygote::stopLocked()
{
    if (m_socket >= 0)
        ::close(m_socket); // it exits when the socket closes
    if (m_pid > 0 && !(m_exit && m_exit->exited()))
        ::kill(m_pid, SIGKILL);
    m_socket = -1;
    m_pid = 0;
    m_exit.reset();
    m_state = State::Off;
}

bool RunnerZygote::spawnWarmLocked(const SpawnRequest& request, Reaper& reaper, Spawned& out)
{
    int outPipe[2], errPipe[2], goPipe[2];
    if (::pipe2(outPipe, O_CLOEXEC) != 0)
        return false;
    if (::pipe2(errPipe, O_CLOEXEC) != 0) {
        ::close(outPipe[0]);
        ::close(outPipe[1]);
        return false;
    }
    if (::pipe2(goPipe, O_CLOEXEC) != 0) {
        for (int fd : {outPipe[0], outPipe[1], errPipe[0], errPipe[1]})
            ::close(fd);
        return false;
    }
    int exitPipe[2]; // the resident runner's exit code (one byte) for a run it serves
    if (::pipe2(exitPipe, O_CLOEXEC) != 0) {
        for (int fd : {outPipe[0], outPipe[1], errPipe[0], errPipe[1], goPipe[0], goPipe[1]})
            ::close(fd);
        return false;
    }
    ::fcntl(outPipe[1], F_SETPIPE_SZ, 1 << 20);
    ::fcntl(errPipe[1], F_SETPIPE_SZ, 1 << 20);
    const nlohmann::json msg = {{"argv", request.argv},
                                {"env", request.env},
                                {"cwd", request.cwd},
                                {"noFileGrowth", request.noFileGrowth},
                                {"sdk", recognizes(request.argv)}};
    const std::string text = msg.dump();
    const int fds[] = {outPipe[1], errPipe[1], goPipe[0], exitPipe[1]};
    const bool sent = sendWithFds(m_socket, text, fds, 4) == ssize_t(text.size());
    for (int fd : fds)
        ::close(fd);
    const nlohmann::json answer = sent ? receive(m_socket, kAnswerTimeoutMs) : nlohmann::json();
    const pid_t pid = answer.is_object() ? pid_t(answer.value("pid", 0)) : 0;
    // The child waits for the go byte as an orphan, which PID 1 (this agent) reaps; the
    // resident runner is such an orphan too, made earlier.
    if (pid <= 1 || parentOf(pid) != 1) {
        for (int fd : {outPipe[0], errPipe[0], goPipe[1], exitPipe[0]})
            ::close(fd); // a child that was made reads no go byte and leaves
        return false;
    }
    out.pid = pid;
    out.stdoutFd = outPipe[0];
    out.stderrFd = errPipe[0];
    std::string command;
    for (std::size_t i = 0; i < request.argv.size(); ++i)
        command += (i ? " " : "") + (i == 2 ? std::string("<runner source>") : request.argv[i]);
    if (answer.value("resident", false)) {
        // The resident runs it in its own process, which outlives the run: the run's end is
        // the byte it writes (after closing its ends of the output pipes). No byte means that
        // the process ended during the run (the exec was killed): its own exit status is then
        // the run's, as for a command of its own.
        ::close(goPipe[1]);
        std::shared_ptr<ExitSlot> process;
        {
            auto lock = reaper.lockForSpawn();
            process = reaper.watchLocked(pid, command);
        }
        out.exit = std::make_shared<ExitSlot>();
        std::thread([fd = exitPipe[0], slot = out.exit, process] {
            unsigned char code = 0;
            ssize_t n;
            do
                n = ::read(fd, &code, 1);
            while (n < 0 && errno == EINTR);
            ::close(fd);
            if (n == 1)
                return slot->deliver(int(code) << 8);
            pollfd p{process->eventFd(), POLLIN, 0};
            ::poll(&p, 1, kAnswerTimeoutMs);
            slot->deliver(process->exited() ? process->status() : SIGKILL);
        }).detach();
        return true;
    }
    ::close(exitPipe[0]);
    {
        auto lock = reaper.lockForSpawn();
        out.exit = reaper.watchLocked(pid, std::move(command));
    }
    const char go = 'g';
    const bool started = ::write(goPipe[1], &go, 1) == 1;
    ::close(goPipe[1]);
    if (!started) {
        ::kill(pid, SIGKILL);
        ::close(outPipe[0]);
        ::close(errPipe[0]);
        out = Spawned{};
        return false;
    }
    return true;
}

} // namespace lizard::agent
