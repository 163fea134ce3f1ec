#include "agent/build/seccompfilter.h"

#include <cerrno>
#include <cstring>
#include <linux/falloc.h>
#include <linux/filter.h>
#include <linux/netlink.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <vector>

namespace lizard::agent {

namespace {

// Everything a program of ours, pip, npm, Jupyter, gdb, strace or Chromium (without its own
// sandbox) calls. A name this libseccomp does not know is skipped; a call the filter does not
// name at all (say, one added to a later kernel) fails with ENOSYS, which libraries take as
// "not implemented here" and fall back from.
// clang-format off
const std::vector<const char*> kAllowed = {
    "accept", "accept4", "access", "alarm", "arch_prctl", "bind", "brk", "cachestat", "capget",
    "capset", "chdir", "chmod", "chown", "chroot", "clock_getres", "clock_gettime",
    "clock_nanosleep", "close", "close_range", "connect", "copy_file_range", "creat", "dup", "dup2",
    "dup3", "epoll_create", "epoll_create1", "epoll_ctl", "epoll_pwait", "epoll_pwait2",
    "epoll_wait", "eventfd", "eventfd2", "execve", "execveat", "exit", "exit_group", "faccessat",
    "faccessat2", "fadvise64", "fallocate", "fchdir", "fchmod", "fchmodat", "fchmodat2", "fchown",
    "fchownat", "fcntl", "fdatasync", "fgetxattr", "flistxattr", "flock", "fork", "fremovexattr",
    "fsetxattr", "fstat", "fstatfs", "fsync", "ftruncate", "futex", "futex_waitv", "futimesat",
    "get_mempolicy", "get_robust_list", "get_thread_area", "getcpu", "getcwd", "getdents",
    "getdents64", "getegid", "geteuid", "getgid", "getgroups", "getitimer", "getpeername",
    "getpgid", "getpgrp", "getpid", "getppid", "getpriority", "getrandom", "getresgid", "getresuid",
    "getrlimit", "getrusage", "getsid", "getsockname", "getsockopt", "gettid", "gettimeofday",
    "getuid", "getxattr", "inotify_add_watch", "inotify_init", "inotify_init1", "inotify_rm_watch",
    "io_cancel", "io_destroy", "io_getevents", "io_pgetevents", "io_setup", "io_submit",
    "ioprio_get", "ioprio_set", "kcmp", "kill", "landlock_add_rule", "landlock_create_ruleset",
    "landlock_restrict_self", "lchown", "lgetxattr", "link", "linkat", "listen", "listxattr",
    "llistxattr", "lremovexattr", "lseek", "lsetxattr", "lstat", "madvise", "map_shadow_stack",
    "membarrier", "memfd_create", "mincore", "mkdir", "mkdirat", "mknod", "mknodat", "mlock",
    "mlock2", "mlockall", "mmap", "mprotect", "mq_getsetattr", "mq_notify", "mq_open",
    "mq_timedreceive", "mq_timedsend", "mq_unlink", "mremap", "msgctl", "msgget", "msgrcv",
    "msgsnd", "msync", "munlock", "munlockall", "munmap", "nanosleep", "newfstatat", "open",
    "openat", "openat2", "pause", "pidfd_getfd", "pidfd_open", "pidfd_send_signal", "pipe", "pipe2",
    "pkey_alloc", "pkey_free", "pkey_mprotect", "poll", "ppoll", "prctl", "pread64", "preadv",
    "preadv2", "prlimit64", "process_madvise", "process_mrelease", "process_vm_readv",
    "process_vm_writev", "pselect6", "ptrace", "pwrite64", "pwritev", "pwritev2", "read",
    "readahead", "readlink", "readlinkat", "readv", "recvfrom", "recvmmsg", "recvmsg",
    "remap_file_pages", "removexattr", "rename", "renameat", "renameat2", "restart_syscall",
    "rmdir", "rseq", "rt_sigaction", "rt_sigpending", "rt_sigprocmask", "rt_sigqueueinfo",
    "rt_sigreturn", "rt_sigsuspend", "rt_sigtimedwait", "rt_tgsigqueueinfo",
    "sched_get_priority_max", "sched_get_priority_min", "sched_getaffinity", "sched_getattr",
    "sched_getparam", "sched_getscheduler", "sched_rr_get_interval", "sched_setaffinity",
    "sched_setattr", "sched_setparam", "sched_setscheduler", "sched_yield", "seccomp", "select",
    "semctl", "semget", "semop", "semtimedop", "sendfile", "sendmmsg", "sendmsg", "sendto",
    "set_robust_list", "set_thread_area", "set_tid_address", "setdomainname", "setfsgid",
    "setfsuid", "setgid", "setgroups", "sethostname", "setitimer", "setpgid", "setpriority",
    "setregid", "setresgid", "setresuid", "setreuid", "setrlimit", "setsid", "setsockopt", "setuid",
    "setxattr", "shmat", "shmctl", "shmdt", "shmget", "shutdown", "sigaltstack", "signalfd",
    "signalfd4", "socket", "socketpair", "splice", "stat", "statfs", "statx", "symlink",
    "symlinkat", "sync", "sync_file_range", "syncfs", "sysinfo", "tee", "tgkill", "time",
    "timer_create", "timer_delete", "timer_getoverrun", "timer_gettime", "timer_settime",
    "timerfd_create", "timerfd_gettime", "timerfd_settime", "times", "tkill", "truncate", "umask",
    "uname", "unlink", "unlinkat", "utime", "utimensat", "utimes", "vfork", "vmsplice", "wait4",
    "waitid", "write", "writev",
};
// clang-format on

// Denied with EPERM: the kernel surface most container escapes came through, calls that act on
// the whole host (clock, swap, reboot, modules, kernel log), and the mount and namespace calls
// that could undo the sandbox's own file system and network setup.
// clang-format off
const std::vector<const char*> kDenied = {
    // the mount API
    "mount", "umount", "umount2", "pivot_root", "move_mount", "open_tree", "fsopen", "fsconfig",
    "fsmount", "fspick", "mount_setattr",
    // namespaces (unshare and clone are filtered by flags below)
    "setns",
    // kernel surfaces
    "io_uring_setup", "io_uring_enter", "io_uring_register", "keyctl", "add_key", "request_key",
    "bpf", "perf_event_open", "userfaultfd", "lookup_dcookie", "fanotify_init", "fanotify_mark",
    "memfd_secret",
    // the host as a whole
    "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
    "create_module", "query_module", "get_kernel_syms", "acct", "swapon", "swapoff", "reboot",
    "syslog", "settimeofday", "stime", "clock_settime", "clock_adjtime", "adjtimex", "quotactl",
    "quotactl_fd", "nfsservctl", "vhangup", "iopl", "ioperm", "modify_ldt", "uselib", "ustat",
    "sysfs", "_sysctl", "vm86", "vm86old",
    // file handles walk around the sandbox's root
    "open_by_handle_at", "name_to_handle_at",
    // NUMA policy moves the host's pages
    "mbind", "set_mempolicy", "set_mempolicy_home_node", "migrate_pages", "move_pages",
};
// clang-format on

constexpr unsigned long kNamespaceFlags = CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC |
                                          CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET |
                                          CLONE_NEWCGROUP;

// personality() flags that weaken the address space (as Docker's profile).
constexpr unsigned long kUnsafePersonality =
    ADDR_NO_RANDOMIZE | READ_IMPLIES_EXEC | ADDR_COMPAT_LAYOUT | MMAP_PAGE_ZERO | ADDR_LIMIT_32BIT |
    ADDR_LIMIT_3GB | SHORT_INODE | WHOLE_SECONDS | STICKY_TIMEOUTS | FDPIC_FUNCPTRS;

struct Filter
{
    scmp_filter_ctx ctx = nullptr;
    std::string error;
    ~Filter()
    {
        if (ctx)
            seccomp_release(ctx);
    }
    // Adds a rule; a syscall this libseccomp or architecture does not know is skipped.
    void add(uint32_t action, const char* name, std::initializer_list<scmp_arg_cmp> args = {})
    {
        const int nr = seccomp_syscall_resolve_name(name);
        if (nr == __NR_SCMP_ERROR || !error.empty())
            return;
        const int r = seccomp_rule_add_array(ctx, action, nr, unsigned(args.size()), args.begin());
        if (r != 0 && r != -EDOM) // -EDOM: not on this architecture
            error = std::string("seccomp rule for ") + name + ": " + std::strerror(-r);
    }
};

// libseccomp lets an unconditional rule override conditional ones of the same call, so
// "allow, except these values" is written as two allow rules that together match any value
// (bit 0 clear, bit 0 set) beside the deny rules, which it checks first.
void allowExcept(Filter& f, const char* name, unsigned arg, std::initializer_list<uint64_t> values,
                 uint64_t mask)
{
    for (uint64_t v : values)
        f.add(SCMP_ACT_ERRNO(EPERM), name, {scmp_arg_cmp{arg, SCMP_CMP_MASKED_EQ, mask, v}});
    f.add(SCMP_ACT_ALLOW, name, {scmp_arg_cmp{arg, SCMP_CMP_MASKED_EQ, 1, 0}});
    f.add(SCMP_ACT_ALLOW, name, {scmp_arg_cmp{arg, SCMP_CMP_MASKED_EQ, 1, 1}});
}

// Allowed when none of `flags` is set in argument `arg`; denied (EPERM) when any is.
void allowWithoutFlags(Filter& f, const char* name, unsigned arg, unsigned long flags)
{
    f.add(SCMP_ACT_ALLOW, name, {scmp_arg_cmp{arg, SCMP_CMP_MASKED_EQ, flags, 0}});
    for (unsigned long bit = 1; bit != 0 && bit <= flags; bit <<= 1) {
        if (flags & bit)
            f.add(SCMP_ACT_ERRNO(EPERM), name, {scmp_arg_cmp{arg, SCMP_CMP_MASKED_EQ, bit, bit}});
    }
}

// clang-format off
const std::vector<const char*> kForwarderAllowed = {
    "read", "write", "close", "poll", "ppoll", "recvfrom", "sendto", "recvmsg", "sendmsg",
    "clock_gettime", "gettimeofday", "mmap", "munmap", "mremap", "brk", "madvise", "futex",
    "getpid", "gettid", "getrandom", "newfstatat", "fstat", "rt_sigreturn", "rt_sigprocmask",
    "restart_syscall", "exit", "exit_group",
};
// clang-format on

} // namespace

std::string installDnsForwarderSeccomp()
{
    Filter f;
    f.ctx = seccomp_init(SCMP_ACT_KILL_PROCESS);
    if (!f.ctx)
        return "seccomp_init failed";
    seccomp_attr_set(f.ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
    for (const char* name : kForwarderAllowed)
        f.add(SCMP_ACT_ALLOW, name);
    // Sockets of one kind only: rtnetlink, for each rule it adds.
    f.add(SCMP_ACT_ALLOW, "socket",
          {scmp_arg_cmp{0, SCMP_CMP_EQ, AF_NETLINK, 0},
           scmp_arg_cmp{2, SCMP_CMP_EQ, NETLINK_ROUTE, 0}});
    if (!f.error.empty())
        return f.error;
    if (int r = seccomp_load(f.ctx); r != 0)
        return std::string("loading the DNS forwarder's seccomp filter: ") + std::strerror(-r);
    return {};
}

namespace {

std::string buildSandboxFilter(bool refuseAllocation, Filter& f)
{
    f.ctx = seccomp_init(SCMP_ACT_ERRNO(ENOSYS));
    if (!f.ctx)
        return "seccomp_init failed";
    // Another ABI (i386 through int 0x80, x32) is never legitimate in a sandbox: the process
    // dies with SIGSYS instead of running calls the rules were not written for.
    seccomp_attr_set(f.ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
    seccomp_attr_set(f.ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2); // a binary tree, not a linear scan
    for (const char* name : kAllowed) {
        if (!(refuseAllocation && std::strcmp(name, "fallocate") == 0))
            f.add(SCMP_ACT_ALLOW, name);
    }
    if (refuseAllocation) {
        f.add(SCMP_ACT_ALLOW, "fallocate",
              {scmp_arg_cmp{1, SCMP_CMP_MASKED_EQ, FALLOC_FL_PUNCH_HOLE, FALLOC_FL_PUNCH_HOLE}});
        f.add(SCMP_ACT_ERRNO(EOPNOTSUPP), "fallocate",
              {scmp_arg_cmp{1, SCMP_CMP_MASKED_EQ, FALLOC_FL_PUNCH_HOLE, 0}});
    }
    for (const char* name : kDenied)
        f.add(SCMP_ACT_ERRNO(EPERM), name);
    allowWithoutFlags(f, "clone", 0, kNamespaceFlags);
    allowWithoutFlags(f, "unshare", 0, kNamespaceFlags | CLONE_NEWTIME);
    // clone3 is left to the default, ENOSYS: it passes its flags in memory the filter cannot
    // read, and ENOSYS makes glibc fall back to clone, whose flags it can.
    // Typing into the controlling terminal's input, or the console's.
    allowExcept(f, "ioctl", 1, {TIOCSTI, TIOCLINUX}, 0xffffffffu);
    // personality(): the query (0xffffffff) and personas without unsafe flags.
    f.add(SCMP_ACT_ALLOW, "personality", {scmp_arg_cmp{0, SCMP_CMP_EQ, 0xffffffffu, 0}});
    allowWithoutFlags(f, "personality", 0, kUnsafePersonality);
    return f.error;
}

} // namespace

std::string exportSandboxSeccomp(bool refuseAllocation, std::string& program)
{
    Filter f;
    if (auto e = buildSandboxFilter(refuseAllocation, f); !e.empty())
        return e;
    const int fd = ::memfd_create("seccomp", MFD_CLOEXEC);
    if (fd < 0)
        return std::string("memfd_create: ") + std::strerror(errno);
    std::string e;
    if (int r = seccomp_export_bpf(f.ctx, fd); r != 0)
        e = std::string("exporting the seccomp filter: ") + std::strerror(-r);
    const off_t size = e.empty() ? ::lseek(fd, 0, SEEK_END) : -1;
    program.assign(size > 0 ? size_t(size) : 0, '\0');
    if (e.empty() && (size <= 0 || ::pread(fd, program.data(), program.size(), 0) != size))
        e = "exporting the seccomp filter: no program";
    ::close(fd);
    return e;
}

std::string installSandboxSeccomp(bool refuseAllocation, const std::string& program)
{
    if (!program.empty()) {
        if (program.size() % sizeof(sock_filter) != 0 ||
            program.size() / sizeof(sock_filter) > BPF_MAXINSNS)
            return "the seccomp program is not a BPF program";
        // The kernel reads the instructions from this copy, aligned as sock_filter needs.
        std::vector<sock_filter> code(program.size() / sizeof(sock_filter));
        std::memcpy(code.data(), program.data(), program.size());
        sock_fprog prog{static_cast<unsigned short>(code.size()), code.data()};
        if (::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0)
            return std::string("loading the seccomp filter: ") + std::strerror(errno);
        return {};
    }
    Filter f;
    if (auto e = buildSandboxFilter(refuseAllocation, f); !e.empty())
        return e;
    if (int r = seccomp_load(f.ctx); r != 0)
        return std::string("loading the seccomp filter: ") + std::strerror(-r);
    return {};
}

} // namespace lizard::agent
