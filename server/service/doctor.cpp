#include "service/doctor.h"

#include "runtime/hostprobe.h"
#include "runtime/runtime.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <pwd.h>
#include <string>
#include <unistd.h>

namespace lizard::service {

namespace {

void line(bool ok, const std::string& what, const std::string& detail)
{
    std::printf("  %s %-20s %s\n", ok ? "[ok]" : "[--]", what.c_str(), detail.c_str());
}

std::string statusField(const std::string& name)
{
    std::ifstream in("/proc/self/status");
    std::string l;
    while (std::getline(in, l))
        if (l.rfind(name + ":", 0) == 0)
            return l.substr(name.size() + 1);
    return {};
}

std::string whoAmI()
{
    if (::geteuid() == 0)
        return "root";
    const passwd* pw = ::getpwuid(::geteuid());
    return pw != nullptr && pw->pw_name != nullptr ? std::string(pw->pw_name)
                                                   : "uid " + std::to_string(::geteuid());
}

} // namespace

int runDoctor()
{
    const char* tmp = std::getenv("TMPDIR");
    std::string dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/lizard-doctor-XXXXXX";
    if (::mkdtemp(dir.data()) == nullptr) {
        std::fprintf(stderr, "lizard-local doctor: cannot make a directory in %s\n",
                     tmp ? tmp : "/tmp");
        return 2;
    }
    std::printf("lizard-local %s doctor: what this computer gives sandboxes, as %s\n",
                LIZARD_VERSION, whoAmI().c_str());
    std::fflush(stdout);
    int status = 1;
    {
        auto rt = runtime::Runtime::create(dir);
        if (!rt) {
            line(false, "runtime", rt.error().message);
        } else {
            const runtime::Capabilities& c = (*rt)->capabilities();
            line(c.sandboxes, "sandboxes",
                 c.sandboxes ? "can be made (user namespaces, mounts, the base template)"
                             : c.sandboxesCode + ": " + c.sandboxesError);
            line(c.limits, "limits",
                 c.limits ? "cpu, memory and pids by cgroup " + c.cgroupMode
                          : "no cgroup limits (" + c.limitsNote +
                                "): each process is bounded by rlimits only");
            line(c.freezer != "signals", "pause",
                 c.freezer == "signals" ? "by SIGSTOP of the process tree (no cgroup freezer)"
                                        : "by the cgroup freezer (" + c.freezer + ")");
            line(c.diskBound != "watch", "disk",
                 c.diskBound == "image" ? "bounded by an ext4 image per sandbox"
                 : c.diskBound == "quota"
                     ? "bounded by a FUSE quota file system per sandbox (" + c.diskQuotaNote + ")"
                     : "watched, not bounded (" + c.diskQuotaNote + ")");
            line(c.network, "network",
                 c.network ? "internetAccess works (slirp4netns)"
                           : "sandboxes get no internet (" + c.networkNote + ")");
            line(c.fullUidRange, "users in sandboxes",
                 c.fullUidRange ? "65536 user ids mapped (the user `user` is another uid)"
                                : "one user id mapped (no subordinate uid range)");
            line(c.interpreterTemplate, "interpreter",
                 c.interpreterTemplate ? "Python with the Jupyter and data stack"
                                       : "unavailable, missing: " + c.interpreterMissing);
            status = c.sandboxes ? 0 : 1;
            (*rt)->removeTemplates();
        }
    }
    const std::string desktop = runtime::missingDesktopPackages();
    line(desktop.empty(), "desktop",
         desktop.empty() ? "Xvfb, a browser and VNC for the desktop template"
                         : "unavailable, missing: " + desktop);
    const runtime::AppArmorState aa = runtime::appArmorState();
    line(!aa.restrictsUserns || aa.profileLoaded, "AppArmor",
         !aa.enabled           ? "not active"
         : !aa.restrictsUserns ? "active, no restriction of user namespaces"
         : aa.profileLoaded    ? "restricts user namespaces; lizard-agent's profile is loaded"
         : aa.profileInstalled ? "restricts user namespaces; lizard-agent's profile is installed "
                                 "but not loaded"
                               : "restricts user namespaces; no profile of lizard-desktop");
    const std::string seccomp = statusField("Seccomp");
    line(!seccomp.empty(), "seccomp",
         seccomp.empty() ? "the kernel has no seccomp filters: sandboxes cannot be confined"
                         : "filters supported (every sandbox process runs under one)");
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    std::printf("%s\n", status == 0 ? "Sandboxes can be made on this computer."
                                    : "Sandboxes cannot be made on this computer.");
    return status;
}

} // namespace lizard::service
