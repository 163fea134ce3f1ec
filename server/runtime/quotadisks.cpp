#include "runtime/quotadisks.h"

#include "runtime/diskwatch.h"
#include "runtime/quotadaemonfile.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace lizard::runtime {

namespace {

// A sandbox's daemon sees its mount go a moment after the sandbox's last process.
constexpr int kDaemonEndMs = 2000;

bool writeFile(const char* path, const std::string& text)
{
    const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
    const bool ok = fd >= 0 && ::write(fd, text.data(), text.size()) == ssize_t(text.size());
    if (fd >= 0)
        ::close(fd);
    return ok;
}

// In a child, so this process keeps its namespaces; the exit code is the step that failed (with
// errno in the low byte): 1 user namespace, 2 /dev/fuse, 3 the FUSE file system.
int tryFuseMount()
{
    const uid_t uid = ::geteuid();
    const gid_t gid = ::getegid();
    if (::unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0)
        return 0x100 | (errno & 0xff);
    writeFile("/proc/self/setgroups", "deny");
    if (!writeFile("/proc/self/uid_map", "0 " + std::to_string(uid) + " 1") ||
        !writeFile("/proc/self/gid_map", "0 " + std::to_string(gid) + " 1"))
        return 0x100 | (errno & 0xff);
    const int dev = ::open("/dev/fuse", O_RDWR | O_CLOEXEC);
    if (dev < 0)
        return 0x200 | (errno & 0xff);
    const int fs = ::fsopen("fuse", FSOPEN_CLOEXEC);
    if (fs < 0 || ::fsconfig(fs, FSCONFIG_SET_STRING, "fd", std::to_string(dev).c_str(), 0) != 0 ||
        ::fsconfig(fs, FSCONFIG_SET_STRING, "rootmode", "40000", 0) != 0 ||
        ::fsconfig(fs, FSCONFIG_SET_STRING, "user_id", "0", 0) != 0 ||
        ::fsconfig(fs, FSCONFIG_SET_STRING, "group_id", "0", 0) != 0 ||
        ::fsconfig(fs, FSCONFIG_CMD_CREATE, nullptr, nullptr, 0) != 0)
        return 0x300 | (errno & 0xff);
    return 0;
}

std::string deviceMode()
{
    struct stat st
    {
    };
    if (::stat("/dev/fuse", &st) != 0)
        return "missing";
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", unsigned(st.st_mode & 07777));
    return "mode " + std::string(mode);
}

} // namespace

std::string probeFuse()
{
    const std::string fix = "Debian and Ubuntu desktops make it 0666";
    if (std::getenv("LIZARD_TEST_NO_FUSE") || ::access("/dev/fuse", R_OK | W_OK) != 0)
        return "/dev/fuse is not usable by this user (" + deviceMode() + "; " + fix + ")";
    const pid_t pid = ::fork();
    if (pid == 0)
        ::_exit(tryFuseMount() >> 8);
    if (pid < 0)
        return std::string("fork: ") + std::strerror(errno);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    const int step = WIFEXITED(status) ? WEXITSTATUS(status) : 3;
    if (step == 0)
        return {};
    return step == 1   ? "no user namespace to mount FUSE in"
           : step == 2 ? "/dev/fuse cannot be opened (" + deviceMode() + "; " + fix + ")"
                       : "this kernel does not mount FUSE in a user namespace";
}

QuotaDisks::QuotaDisks(std::string sandboxesDir) : m_sandboxesDir(std::move(sandboxesDir))
{
    m_note = probeFuse();
    m_usable = m_note.empty();
}

nlohmann::json QuotaDisks::launchConfig(int gb)
{
    return {{"bytes", bytesOf(gb)}, {"inodes", std::int64_t(DiskWatch::inodeBound(gb))}};
}

void QuotaDisks::started(const std::string& id, int gb, pid_t daemon)
{
    std::ofstream(dir(id) + "/disk-quota.gb") << gb << "\n";
    recordQuotaDaemon(dir(id), daemon);
    std::lock_guard lock(m_mutex);
    m_sizes[id] = gb;
}

bool QuotaDisks::adopt(const std::string& id)
{
    int gb = 0;
    if (std::ifstream in(dir(id) + "/disk-quota.gb"); !(in >> gb) || gb <= 0)
        return false;
    std::lock_guard lock(m_mutex);
    m_sizes[id] = gb;
    return true;
}

int QuotaDisks::sizeGb(const std::string& id) const
{
    std::lock_guard lock(m_mutex);
    auto it = m_sizes.find(id);
    return it == m_sizes.end() ? 0 : it->second;
}

void QuotaDisks::release(const std::string& id)
{
    {
        std::lock_guard lock(m_mutex);
        m_sizes.erase(id);
    }
    endQuotaDaemon(dir(id), kDaemonEndMs);
}

} // namespace lizard::runtime
