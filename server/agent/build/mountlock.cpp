#include "agent/build/mountlock.h"

#include "agent/build/idmap.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace lizard::agent {

namespace {

// Runs in a child that stays in the outer namespace, where it may write the new maps.
[[noreturn]] void writeMapsFor(pid_t target, int goFd, int doneFd)
{
    char c = 0;
    if (::read(goFd, &c, 1) != 1)
        ::_exit(1);
    const std::string base = "/proc/" + std::to_string(target);
    std::string e = writeProcFile(base + "/uid_map", identityMap("/proc/self/uid_map"));
    if (e.empty())
        e = writeProcFile(base + "/gid_map", identityMap("/proc/self/gid_map"));
    // "k", or what failed: the parent reports it.
    const std::string answer = e.empty() ? "k" : "e" + e;
    [[maybe_unused]] auto n =
        ::write(doneFd, answer.data(), std::min<std::size_t>(answer.size(), 512));
    ::_exit(e.empty() ? 0 : 1);
}

} // namespace

std::string lockMounts()
{
    int go[2], done[2];
    if (::pipe2(go, O_CLOEXEC) != 0)
        return std::string("pipe: ") + std::strerror(errno);
    if (::pipe2(done, O_CLOEXEC) != 0) {
        ::close(go[0]);
        ::close(go[1]);
        return std::string("pipe: ") + std::strerror(errno);
    }
    // The helper writes our /proc/<pid>/uid_map, which only our owner may open: a process that
    // is not dumpable has its /proc files owned by the host's root.
    ::prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
    const pid_t self = ::getpid();
    const pid_t helper = ::fork();
    if (helper == 0) {
        ::close(go[1]);
        ::close(done[0]);
        writeMapsFor(self, go[0], done[1]);
    }
    ::close(go[0]);
    ::close(done[1]);
    std::string error;
    if (helper < 0)
        error = std::string("fork: ") + std::strerror(errno);
    else if (::unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0)
        error = std::string("unshare: ") + std::strerror(errno);
    char c = error.empty() ? 'g' : 'x';
    if (helper > 0) {
        [[maybe_unused]] auto n = ::write(go[1], &c, 1);
        char answer[513] = {};
        if (error.empty()) {
            const ssize_t got = ::read(done[0], answer, 512);
            if (got <= 0)
                error = "the helper that writes the inner namespace's id maps died";
            else if (answer[0] != 'k')
                error = "writing the inner namespace's id maps: " +
                        std::string(answer + 1, std::size_t(got - 1));
        }
        while (::waitpid(helper, nullptr, 0) < 0 && errno == EINTR) {
        }
    }
    ::close(go[1]);
    ::close(done[0]);
    ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    return error;
}

} // namespace lizard::agent
