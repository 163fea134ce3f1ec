#include "agent/build/confinement.h"

#include "agent/build/seccompfilter.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace lizard::agent {

namespace {

// Docker's default set: enough for root in a sandbox to own files, switch users, bind low
// ports and ping; none of them reaches past the sandbox's namespaces.
constexpr int kKeptCaps[] = {CAP_CHOWN,   CAP_DAC_OVERRIDE, CAP_FSETID,           CAP_FOWNER,
                             CAP_MKNOD,   CAP_NET_RAW,      CAP_SETGID,           CAP_SETUID,
                             CAP_SETFCAP, CAP_SETPCAP,      CAP_NET_BIND_SERVICE, CAP_SYS_CHROOT,
                             CAP_KILL,    CAP_AUDIT_WRITE};

bool kept(int cap)
{
    for (int k : kKeptCaps) {
        if (k == cap)
            return true;
    }
    return false;
}

int lastCap()
{
    int last = CAP_LAST_CAP;
    if (FILE* f = std::fopen("/proc/sys/kernel/cap_last_cap", "re")) {
        if (std::fscanf(f, "%d", &last) != 1)
            last = CAP_LAST_CAP;
        std::fclose(f);
    }
    return last;
}

std::string errnoText(const char* what)
{
    return std::string(what) + ": " + std::strerror(errno);
}

} // namespace

std::string confineSandbox(bool diskWatched, const std::string& seccompProgram)
{
    // The bounding set limits what any later execve can gain; PID 1 keeps its own effective
    // set (it needs it to switch users for exec and file requests).
    for (int cap = 0; cap <= lastCap(); ++cap) {
        if (!kept(cap) && ::prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL)
            return errnoText("dropping a capability from the bounding set");
    }
    if (::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL)
        return errnoText("clearing ambient capabilities");
    // No inheritable capabilities: an execve keeps only what the bounding set allows root.
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3]{};
    if (::syscall(SYS_capget, &header, data) != 0)
        return errnoText("capget");
    for (auto& d : data)
        d.inheritable = 0;
    if (::syscall(SYS_capset, &header, data) != 0)
        return errnoText("capset");
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return errnoText("no_new_privs");
    return installSandboxSeccomp(diskWatched, seccompProgram);
}

std::string confineDnsForwarder()
{
    for (int cap = 0; cap <= lastCap(); ++cap) {
        if (cap != CAP_NET_ADMIN && ::prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL)
            return errnoText("dropping a capability from the bounding set");
    }
    if (::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL)
        return errnoText("clearing ambient capabilities");
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3]{};
    const unsigned bit = 1u << (CAP_NET_ADMIN % 32);
    data[CAP_NET_ADMIN / 32].effective = bit;
    data[CAP_NET_ADMIN / 32].permitted = bit;
    if (::syscall(SYS_capset, &header, data) != 0)
        return errnoText("capset");
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return errnoText("no_new_privs");
    return installDnsForwarderSeccomp();
}

} // namespace lizard::agent
