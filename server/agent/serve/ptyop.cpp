#include "agent/serve/ptyop.h"

#include "agent/serve/execenv.h"
#include "agent/serve/execspawn.h"
#include "agent/serve/fdpassing.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

namespace lizard::agent {

namespace {

// After lizard-local hangs up, the program gets SIGHUP (as from a closed terminal window),
// then SIGKILL for its whole tree if it is still there after this.
constexpr int kHangupGraceMs = 2000;

struct Pty
{
    int master = -1;
    int slave = -1;
    std::string name;
    std::string error;
};

Pty openPty(unsigned short cols, unsigned short rows, const UserInfo& user)
{
    Pty p;
    // /dev/ptmx is the sandbox's own devpts instance (sandboxdev.cpp): the terminal is one of
    // the sandbox's, never the host's.
    p.master = ::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (p.master < 0 || ::grantpt(p.master) != 0 || ::unlockpt(p.master) != 0) {
        p.error = std::string("no terminal: ") + std::strerror(errno);
        return p;
    }
    char name[128];
    if (::ptsname_r(p.master, name, sizeof name) != 0) {
        p.error = std::string("no terminal name: ") + std::strerror(errno);
        return p;
    }
    p.name = name;
    p.slave = ::open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (p.slave < 0) {
        p.error = p.name + ": " + std::strerror(errno);
        return p;
    }
    // The user owns its terminal, as login does: programs that reopen it (/dev/tty, sudo,
    // ssh) and `mesg` expect that. Refused in a sandbox with one uid; harmless then.
    [[maybe_unused]] int owned = ::fchown(p.slave, user.uid, user.gid);
    ::fchmod(p.slave, 0620);
    winsize ws{};
    ws.ws_col = cols;
    ws.ws_row = rows;
    ::ioctl(p.master, TIOCSWINSZ, &ws);
    return p;
}

void closePty(Pty& p)
{
    for (int* fd : {&p.master, &p.slave})
        if (*fd >= 0) {
            ::close(*fd);
            *fd = -1;
        }
}

bool readSize(const nlohmann::json& req, const char* field, int fallback, int max, int& out)
{
    auto it = req.find(field);
    if (it == req.end() || it->is_null()) {
        out = fallback;
        return true;
    }
    if (!it->is_number_integer() || it->get<long long>() < 1 || it->get<long long>() > max)
        return false;
    out = int(it->get<long long>());
    return true;
}

} // namespace

void handlePty(FrameStream& stream, const nlohmann::json& req, AgentContext& context)
{
    int cols = 0, rows = 0;
    if (!readSize(req, "cols", 80, 1000, cols) || !readSize(req, "rows", 24, 500, rows))
        return void(stream.writeError("INVALID_ARGUMENT",
                                      "cols must be 1..1000 and rows 1..500 (whole numbers)"));
    auto user = lookupUser(req.value("user", std::string("root")), context.singleUid);
    if (!user)
        return void(stream.writeError("UNKNOWN_USER", "no such user in the sandbox: " +
                                                          req.value("user", std::string())));
    nlohmann::json env = req.value("env", nlohmann::json::object());
    if (!validEnv(env))
        return void(stream.writeError("INVALID_ARGUMENT", "env must map names to strings"));

    SpawnRequest spawn;
    const auto& argvJson = req.value("argv", nlohmann::json::array());
    if (!argvJson.is_array())
        return void(stream.writeError("INVALID_ARGUMENT", "argv must be an array of strings"));
    for (const auto& a : argvJson) {
        if (!a.is_string())
            return void(stream.writeError("INVALID_ARGUMENT", "argv must be an array of strings"));
        spawn.argv.push_back(a.get<std::string>());
    }
    // No command: the user's login shell, as a login (argv[0] "-bash" would hide the path
    // from the process list; "-l" says the same to every common shell).
    if (spawn.argv.empty())
        spawn.argv = {user->shell, "-l"};
    spawn.user = *user;
    spawn.env = buildEnv(context, *user, nlohmann::json::object());
    spawn.env["TERM"] = "xterm-256color";
    spawn.env["COLORTERM"] = "truecolor";
    spawn.env["SHELL"] = user->shell;
    for (const auto& [k, v] : env.items())
        spawn.env[k] = v.get<std::string>();
    spawn.cwd = req.value("cwd", std::string());
    if (spawn.cwd.empty())
        spawn.cwd = user->home;
    spawn.noFileGrowth = context.diskFull;

    Pty pty = openPty(static_cast<unsigned short>(cols), static_cast<unsigned short>(rows), *user);
    if (!pty.error.empty()) {
        closePty(pty);
        return void(stream.writeError("IO_ERROR", pty.error));
    }
    spawn.ttyFd = pty.slave;
    Spawned child = spawnCommand(spawn, context.reaper);
    ::close(pty.slave);
    pty.slave = -1;
    if (!child.errorCode.empty()) {
        closePty(pty);
        return void(stream.writeError(child.errorCode, child.errorMessage));
    }
    const pid_t pid = child.pid;
    context.processes.add({pid, spawn.argv, spawn.cwd, unixNowMs()});

    const nlohmann::json started{{"ok", true}, {"pid", pid}, {"tty", pty.name}};
    const bool handedOver = sendJsonWithFd(stream.fd(), started.dump(), pty.master);
    closePty(pty); // lizard-local holds the master now (or nobody does)

    bool peerGone = !handedOver;
    while (!peerGone && !child.exit->exited()) {
        pollfd p[2] = {{child.exit->eventFd(), POLLIN, 0}, {stream.fd(), POLLIN | POLLRDHUP, 0}};
        if (::poll(p, 2, -1) < 0 && errno != EINTR)
            break;
        // lizard-local sends nothing after the request: readable means it hung up.
        if (p[1].revents & (POLLIN | POLLRDHUP | POLLHUP | POLLERR))
            peerGone = true;
    }
    if (peerGone && !child.exit->exited()) {
        signalProcessTree(pid, SIGHUP);
        pollfd e{child.exit->eventFd(), POLLIN, 0};
        ::poll(&e, 1, kHangupGraceMs);
        if (!child.exit->exited())
            signalProcessTree(pid, SIGKILL);
        while (!child.exit->exited())
            ::poll(&e, 1, 1000);
    }
    context.processes.remove(pid);
    if (peerGone)
        return;
    const int status = child.exit->status();
    const int exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    stream.writeJson({{"exitCode", exitCode}});
}

} // namespace lizard::agent
