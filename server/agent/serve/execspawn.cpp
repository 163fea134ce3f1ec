#include "agent/serve/execspawn.h"

#include "agent/build/rlimits.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <grp.h>
#include <initializer_list>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

namespace lizard::agent {

namespace {

enum Stage : int { StageStdio = 1, StageCreds = 2, StageCwd = 3, StageExec = 4 };

struct ChildFailure
{
    int stage;
    int err;
};

[[noreturn]] void failChild(int fd, int stage)
{
    ChildFailure f{stage, errno};
    [[maybe_unused]] auto n = ::write(fd, &f, sizeof f);
    ::_exit(127);
}

// Raising a score needs no privilege, but until its execve the child is as undumpable as PID 1,
// so its /proc files belong to the host's root and neither it nor PID 1 may write them; once
// the program runs, PID 1 may, as root of the sandbox. The failure pipe closes a little before
// the kernel makes the new program dumpable, so the open is tried again for up to ~20 ms (an
// unreadable program stays undumpable). A program that forks in its first microseconds gives
// those children PID 1's score.
void raiseOomScore(pid_t pid)
{
    const std::string path = "/proc/" + std::to_string(pid) + "/oom_score_adj";
    int fd = -1;
    for (int i = 0; i < 200 && fd < 0; ++i) {
        fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd < 0 && errno != EACCES)
            return; // gone already
        if (fd < 0)
            ::usleep(i < 20 ? 10 : 100);
    }
    if (fd < 0)
        return;
    const std::string value = std::to_string(kSandboxOomScoreAdj);
    [[maybe_unused]] auto n = ::write(fd, value.data(), value.size());
    ::close(fd);
}

} // namespace

std::string resolveExecutable(const std::string& name,
                              const std::map<std::string, std::string>& env)
{
    if (name.find('/') != std::string::npos)
        return name;
    auto it = env.find("PATH");
    std::string path = it != env.end() ? it->second : "/usr/local/bin:/usr/bin:/bin";
    std::size_t start = 0;
    while (start <= path.size()) {
        auto end = path.find(':', start);
        if (end == std::string::npos)
            end = path.size();
        std::string dir = path.substr(start, end - start);
        std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
        struct stat st
        {
        };
        if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
            ::access(candidate.c_str(), X_OK) == 0)
            return candidate;
        start = end + 1;
    }
    return {};
}

bool isDirectory(const std::string& path)
{
    struct stat st
    {
    };
    return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

namespace {
int g_workloadCgroup = -1; // set before PID 1 starts any thread
} // namespace

void setWorkloadCgroup(int fd)
{
    g_workloadCgroup = fd;
}

Spawned spawnCommand(const SpawnRequest& request, Reaper& reaper)
{
    Spawned out;
    std::string exe = resolveExecutable(request.argv.at(0), request.env);
    if (exe.empty()) {
        out.errorCode = "SPAWN_FAILED";
        out.errorMessage = request.argv[0] + ": command not found";
        return out;
    }
    std::vector<std::string> envStrings;
    for (const auto& [k, v] : request.env)
        envStrings.push_back(k + "=" + v);
    std::vector<char*> argv, envp;
    for (const auto& a : request.argv)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    for (auto& e : envStrings)
        envp.push_back(e.data());
    envp.push_back(nullptr);

    const int ttyFd = request.ttyFd;
    // With a terminal, its slave stands in for both pipes (-1: nothing to close).
    int outPipe[2] = {-1, -1}, errPipe[2] = {-1, -1}, failPipe[2];
    auto closeAll = [](std::initializer_list<int> fds) {
        for (int fd : fds)
            if (fd >= 0)
                ::close(fd);
    };
    if (ttyFd < 0 && ::pipe2(outPipe, O_CLOEXEC) != 0)
        return {0, -1, -1, nullptr, "IO_ERROR", std::strerror(errno)};
    if (ttyFd < 0 && ::pipe2(errPipe, O_CLOEXEC) != 0) {
        closeAll({outPipe[0], outPipe[1]});
        return {0, -1, -1, nullptr, "IO_ERROR", std::strerror(errno)};
    }
    if (::pipe2(failPipe, O_CLOEXEC) != 0) {
        closeAll({outPipe[0], outPipe[1], errPipe[0], errPipe[1]});
        return {0, -1, -1, nullptr, "IO_ERROR", std::strerror(errno)};
    }
    // Bigger pipes mean fewer wake-ups when a command writes a lot.
    if (ttyFd < 0) {
        ::fcntl(outPipe[1], F_SETPIPE_SZ, 1 << 20);
        ::fcntl(errPipe[1], F_SETPIPE_SZ, 1 << 20);
    }

    const char* cwd = request.cwd.c_str();
    const char* exePath = exe.c_str();
    const uid_t uid = request.user.uid;
    const gid_t gid = request.user.gid;
    const bool noFileGrowth = request.noFileGrowth;
    const int passFd = request.passFd;
    sigset_t empty;
    sigemptyset(&empty);

    auto lock = reaper.lockForSpawn();
    pid_t pid = ::fork();
    if (pid == 0) {
        int failFd = failPipe[1];
        if (passFd >= 0 && failFd == 3) // fd 3 is about to become passFd
            failFd = ::fcntl(3, F_DUPFD_CLOEXEC, 4);
        ::setsid();
        ::sigprocmask(SIG_SETMASK, &empty, nullptr);
        // Out of PID 1's cpu group, with the host credentials the descriptor was opened with;
        // a failure leaves the command beside PID 1, which is correct, only less fair.
        if (g_workloadCgroup >= 0) {
            [[maybe_unused]] ssize_t moved = ::write(g_workloadCgroup, "0", 1);
        }
        if (ttyFd >= 0) {
            // The new session's first terminal becomes its controlling one (job control,
            // Ctrl+C, SIGWINCH, /dev/tty).
            if (::dup2(ttyFd, 0) < 0 || ::dup2(ttyFd, 1) < 0 || ::dup2(ttyFd, 2) < 0 ||
                ::ioctl(0, TIOCSCTTY, 0) != 0)
                failChild(failFd, StageStdio);
        } else {
            int devNull = ::open("/dev/null", O_RDONLY);
            if (devNull < 0 || ::dup2(devNull, 0) < 0 || ::dup2(outPipe[1], 1) < 0 ||
                ::dup2(errPipe[1], 2) < 0)
                failChild(failFd, StageStdio);
        }
        if (passFd >= 0 && ::dup2(passFd, 3) < 0)
            failChild(failFd, StageStdio);
        if (uid != 0 || gid != 0) {
            gid_t groups[1] = {gid};
            ::setgroups(1, groups); // denied when only one uid is mapped; harmless then
            if (::setresgid(gid, gid, gid) != 0 || ::setresuid(uid, uid, uid) != 0)
                failChild(failFd, StageCreds);
        }
        if (::chdir(cwd) != 0)
            failChild(failFd, StageCwd);
        restoreProgramDataLimit();
        if (noFileGrowth) {
            const rlimit none{0, 0};
            ::setrlimit(RLIMIT_FSIZE, &none);
        }
        ::execve(exePath, argv.data(), envp.data());
        failChild(failFd, StageExec);
    }
    int forkErr = errno;
    if (pid > 0) {
        std::string command;
        for (const auto& arg : request.argv)
            command += (command.empty() ? "" : " ") + arg;
        out.exit = reaper.watchLocked(pid, std::move(command));
    }
    lock.unlock();

    closeAll({outPipe[1], errPipe[1], failPipe[1]});
    if (pid < 0) {
        closeAll({outPipe[0], errPipe[0], failPipe[0]});
        out.errorCode = "SPAWN_FAILED";
        out.errorMessage = std::string("fork: ") + std::strerror(forkErr);
        return out;
    }
    ChildFailure failure{};
    ssize_t n;
    do {
        n = ::read(failPipe[0], &failure, sizeof failure);
    } while (n < 0 && errno == EINTR);
    ::close(failPipe[0]);
    if (n == ssize_t(sizeof failure)) {
        closeAll({outPipe[0], errPipe[0]});
        const char* what = failure.stage == StageCwd    ? "working directory "
                           : failure.stage == StageExec ? "execve "
                                                        : "setup ";
        out.errorCode = failure.stage == StageCwd && failure.err == ENOENT    ? "NOT_FOUND"
                        : failure.stage == StageCwd && failure.err == ENOTDIR ? "NOT_A_DIRECTORY"
                        : failure.stage == StageCwd && failure.err == EACCES  ? "PERMISSION_DENIED"
                                                                              : "SPAWN_FAILED";
        out.errorMessage = what + (failure.stage == StageCwd ? request.cwd : exe) + ": " +
                           std::strerror(failure.err);
        return out; // the reaper collects the child's status into the unused slot
    }
    if (request.oomFirst)
        raiseOomScore(pid);
    out.pid = pid;
    out.stdoutFd = outPipe[0];
    out.stderrFd = errPipe[0];
    return out;
}

} // namespace lizard::agent
