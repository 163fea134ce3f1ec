#include "agent/quotafs/quotafsconfinement.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/landlock.h>
#include <seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace lizard::agent::quotafs {

namespace {

bool g_landlocked = false;

std::string errnoText(const char* what)
{
    return std::string(what) + ": " + std::strerror(errno);
}

// Owners (chown to the caller's ids), permission overrides on the sandbox's files (its root
// may write anywhere in its layer), modes and times of files it does not own, set-group-ID
// kept, file capabilities (setcap in the sandbox: security.capability).
constexpr int kKeptCaps[] = {CAP_CHOWN,  CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH,
                             CAP_FOWNER, CAP_FSETID,       CAP_SETFCAP};

// Landlock's rights by ABI version; TRUNCATE (3) may be newer than these headers.
constexpr std::uint64_t kFsAbi1 = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1;
constexpr std::uint64_t kFsRefer = 1ull << 13;
constexpr std::uint64_t kFsTruncate = 1ull << 14;

std::string landlock(int backing)
{
    const long abi =
        ::syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 1)
        return {}; // no Landlock here: the seccomp filter and the capabilities remain
    std::uint64_t handled = kFsAbi1 | (abi >= 2 ? kFsRefer : 0) | (abi >= 3 ? kFsTruncate : 0);
    landlock_ruleset_attr attr{};
    attr.handled_access_fs = handled;
    const int ruleset = int(::syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0));
    if (ruleset < 0)
        return errnoText("landlock_create_ruleset");
    // Beneath the layer directory everything but executing.
    landlock_path_beneath_attr beneath{};
    beneath.allowed_access = handled & ~LANDLOCK_ACCESS_FS_EXECUTE;
    beneath.parent_fd = backing;
    if (::syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &beneath, 0) != 0 ||
        ::syscall(SYS_landlock_restrict_self, ruleset, 0) != 0) {
        const std::string e = errnoText("landlock");
        ::close(ruleset);
        return e;
    }
    ::close(ruleset);
    g_landlocked = true;
    return {};
}

} // namespace

std::string confineQuotaFs(int backing)
{
    // Its own descriptors by number: the only "paths" the request handlers use.
    if (::chdir("/proc/self/fd") != 0)
        return errnoText("chdir /proc/self/fd");
    for (int cap = 0; cap <= CAP_LAST_CAP + 8; ++cap) {
        bool keep = false;
        for (int k : kKeptCaps)
            keep = keep || k == cap;
        if (!keep && ::prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL)
            return errnoText("dropping a capability from the bounding set");
    }
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3]{};
    for (int cap : kKeptCaps) {
        data[cap / 32].effective |= 1u << (cap % 32);
        data[cap / 32].permitted |= 1u << (cap % 32);
    }
    if (::syscall(SYS_capset, &header, data) != 0)
        return errnoText("capset");
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return errnoText("no_new_privs");
    return landlock(backing);
}

bool quotaFsLandlocked()
{
    return g_landlocked;
}

// clang-format off
// The request loop's calls (quotafs*.cpp, quotafsdaemon.cpp) and what glibc's allocator and
// threads make on their behalf. A thread may still be starting when the filter arrives (TSYNC):
// glibc aborts the whole process if that thread cannot register its rseq area, so rseq and
// set_robust_list are allowed too.
const char* const kAllowed[] = {
    "read", "write", "pread64", "pwrite64", "lseek", "close", "openat", "getdents64",
    "fstat", "newfstatat", "statx", "readlinkat", "mknodat", "mkdirat", "symlinkat", "linkat",
    "unlinkat", "renameat", "renameat2", "fchownat", "fchmodat2", "fchmod", "fchmodat", "truncate", "ftruncate",
    "utimensat", "fsync", "fdatasync", "fallocate", "setxattr", "getxattr", "listxattr",
    "removexattr", "sendto", "futex", "mmap", "munmap", "mremap", "mprotect", "madvise", "brk",
    "rt_sigreturn", "rt_sigprocmask", "sched_yield", "getpid", "gettid", "tgkill",
    "clock_gettime", "gettimeofday", "getrandom", "restart_syscall", "exit", "exit_group",
    "rseq", "set_robust_list", "sched_getaffinity",
};
// clang-format on

std::string installQuotaFsSeccomp()
{
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ERRNO(EPERM));
    if (!ctx)
        return "seccomp_init failed";
    seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
    seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1);
    std::string error;
    for (const char* name : kAllowed) {
        const int nr = seccomp_syscall_resolve_name(name);
        if (nr == __NR_SCMP_ERROR)
            continue; // not on this architecture
        if (int r = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0); r != 0 && error.empty())
            error = std::string("seccomp rule for ") + name + ": " + std::strerror(-r);
    }
    if (error.empty()) {
        if (int r = seccomp_load(ctx); r != 0)
            error = std::string("loading the quota daemon's seccomp filter: ") + std::strerror(-r);
    }
    seccomp_release(ctx);
    return error;
}

} // namespace lizard::agent::quotafs
