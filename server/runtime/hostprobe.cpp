#include "runtime/hostprobe.h"

#include "runtime/procinfo.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace lizard::runtime {

namespace {

std::string readLine(const char* path)
{
    std::ifstream in(path);
    std::string s;
    std::getline(in, s);
    return s;
}

// LIZARD_TEST_INTERPRETER_MODULES (tests only): more Python modules the interpreter template
// needs, comma-separated. Naming one the host lacks makes the template unavailable with a known
// missing package, which is how tests reach that error on a host that has everything.
std::string extraModules()
{
    const char* env = std::getenv("LIZARD_TEST_INTERPRETER_MODULES");
    std::string list;
    std::string name;
    const std::string text = env ? std::string(env) + "," : std::string();
    for (char c : text) {
        if (c != ',') {
            name += c;
            continue;
        }
        // Module names only: the list goes into a Python command line.
        const bool valid = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
                           std::all_of(name.begin(), name.end(), [](char ch) {
                               return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
                           });
        if (valid)
            list += ",'" + name + "'";
        name.clear();
    }
    return list;
}

} // namespace

std::string missingInterpreterPackages()
{
    std::string missing;
    auto add = [&](const std::string& what) { missing += (missing.empty() ? "" : ", ") + what; };
    if (::access("/usr/bin/python3", X_OK) != 0) {
        add("python3");
    } else {
        // -I: no user site, no environment; modules found only under /usr/local do not count.
        const std::string cmd =
            "/usr/bin/python3 -I -c \"import importlib.util as u\n"
            "for m in ['ipykernel','jupyter_client','numpy','pandas','matplotlib'" +
            extraModules() +
            "]:\n"
            "    s=u.find_spec(m)\n"
            "    if s is None or (s.origin or '').startswith('/usr/local/'): "
            "print('python3-'+m.replace('_','-'))\n\" 2>/dev/null";
        if (FILE* p = ::popen(cmd.c_str(), "r")) {
            std::array<char, 256> buf{};
            while (std::fgets(buf.data(), int(buf.size()), p)) {
                std::string line(buf.data());
                while (!line.empty() && (line.back() == '\n' || line.back() == '\r'))
                    line.pop_back();
                if (!line.empty())
                    add(line);
            }
            ::pclose(p);
        }
    }
    if (::access("/usr/bin/node", X_OK) != 0 && ::access("/usr/bin/nodejs", X_OK) != 0)
        add("nodejs");
    return missing;
}

// LIZARD_TEST_DESKTOP_FILES (tests only): more files the desktop template needs, as
// "package=/absolute/path,…". Naming a file the host lacks makes the template unavailable with a
// known missing package, which is how tests reach that error on a host that has everything.
std::vector<std::pair<std::string, std::string>> extraDesktopFiles()
{
    std::vector<std::pair<std::string, std::string>> files;
    const char* env = std::getenv("LIZARD_TEST_DESKTOP_FILES");
    std::string item;
    const std::string text = env ? std::string(env) + "," : std::string();
    for (char c : text) {
        if (c != ',') {
            item += c;
            continue;
        }
        const auto eq = item.find('=');
        if (eq != std::string::npos && eq > 0 && eq + 1 < item.size() && item[eq + 1] == '/')
            files.emplace_back(item.substr(0, eq), item.substr(eq + 1));
        item.clear();
    }
    return files;
}

std::string missingDesktopPackages()
{
    // A file each package installs, by package; the sandbox sees the host's /usr.
    static const std::pair<const char*, const char*> kFiles[] = {
        {"xvfb", "/usr/bin/Xvfb"},
        {"openbox", "/usr/bin/openbox"},
        {"chromium", "/usr/bin/chromium"},
        {"xdotool", "/usr/bin/xdotool"},
        {"scrot", "/usr/bin/scrot"},
        {"x11vnc", "/usr/bin/x11vnc"},
        {"novnc", "/usr/share/novnc/vnc.html"},
        {"python3-websockify", "/usr/bin/websockify"},
        {"fonts-dejavu-core", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"},
    };
    std::vector<std::pair<std::string, std::string>> files(std::begin(kFiles), std::end(kFiles));
    for (auto& extra : extraDesktopFiles())
        files.push_back(std::move(extra));
    std::string missing;
    for (const auto& [package, file] : files) {
        if (::access(file.c_str(), R_OK) != 0)
            missing += (missing.empty() ? "" : ", ") + package;
    }
    return missing;
}

namespace {

std::string testHostProblem()
{
    const char* env = std::getenv("LIZARD_TEST_HOST_PROBLEM");
    return env ? std::string(env) : std::string();
}

// Either simulated AppArmor restriction (with or without our profile installed).
bool simulatesRestriction(const std::string& problem)
{
    return problem.rfind("userns-restricted", 0) == 0;
}

// A sysctl's value, or what the simulated host of LIZARD_TEST_HOST_PROBLEM has there.
std::string sysctlValue(const char* path)
{
    const std::string problem = testHostProblem();
    const std::string name(path);
    if (problem == "userns-disabled" && name == "/proc/sys/user/max_user_namespaces")
        return "0";
    if (simulatesRestriction(problem) &&
        name == "/proc/sys/kernel/apparmor_restrict_unprivileged_userns")
        return "1";
    return readLine(path);
}

bool fileContains(const char* path, const std::string& needle)
{
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line))
        if (line.find(needle) != std::string::npos)
            return true;
    return false;
}

// Writes `text` to a /proc file of this process; 0 or errno.
int writeProc(const char* path, const std::string& text)
{
    std::FILE* f = std::fopen(path, "w");
    if (f == nullptr)
        return errno;
    const bool ok = std::fputs(text.c_str(), f) >= 0;
    const int err = ok ? 0 : errno;
    return std::fclose(f) == 0 ? err : (err ? err : errno);
}

} // namespace

std::string probeUserNamespace()
{
    const std::string problem = testHostProblem();
    if (problem == "userns-disabled")
        return "unshare(CLONE_NEWUSER): " + std::string(std::strerror(ENOSPC));
    if (simulatesRestriction(problem))
        return "uid_map: " + std::string(std::strerror(EPERM));
    const uid_t uid = ::geteuid();
    const gid_t gid = ::getegid();
    // In a child, so this process keeps its namespaces; the exit code carries errno, plus 128
    // when the uid map (not the unshare) failed.
    const pid_t pid = ::fork();
    if (pid == 0) {
        if (::unshare(CLONE_NEWUSER) != 0)
            ::_exit(errno & 0x7f);
        if (uid != 0) {
            int err = writeProc("/proc/self/setgroups", "deny");
            if (err == 0)
                err = writeProc("/proc/self/uid_map", "0 " + std::to_string(uid) + " 1");
            if (err == 0)
                err = writeProc("/proc/self/gid_map", "0 " + std::to_string(gid) + " 1");
            if (err != 0)
                ::_exit(128 | (err & 0x7f));
        }
        ::_exit(0);
    }
    if (pid < 0)
        return std::string("fork: ") + std::strerror(errno);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return {};
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : EPERM;
    return std::string(code & 128 ? "uid_map: " : "unshare(CLONE_NEWUSER): ") +
           std::strerror(code & 0x7f);
}

AppArmorState appArmorState()
{
    AppArmorState st;
    const std::string problem = testHostProblem();
    st.enabled =
        readLine("/sys/module/apparmor/parameters/enabled") == "Y" || simulatesRestriction(problem);
    st.restrictsUserns =
        sysctlValue("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") == "1";
    if (problem == "userns-restricted") {
        st.profileInstalled = false;
    } else if (problem == "userns-restricted-unloaded") {
        st.profileInstalled = true;
    } else {
        st.profileInstalled = ::access("/etc/apparmor.d/lizard-agent", R_OK) == 0;
        st.profileLoaded = fileContains("/sys/kernel/security/apparmor/profiles", "lizard-agent ");
    }
    return st;
}

HostProblem diagnoseUserns(const std::string& error)
{
    const std::string what = "user namespaces are not available: " + error + ".";
    if (sysctlValue("/proc/sys/user/max_user_namespaces") == "0")
        return {"USERNS_DISABLED",
                what + " user.max_user_namespaces is 0 on this host (to keep the fix after a "
                       "reboot, put user.max_user_namespaces=15000 in "
                       "/etc/sysctl.d/60-lizard.conf).",
                "sudo sysctl -w user.max_user_namespaces=15000"};
    if (sysctlValue("/proc/sys/kernel/unprivileged_userns_clone") == "0")
        return {"USERNS_DISABLED",
                what + " kernel.unprivileged_userns_clone is 0 on this host (to keep the fix "
                       "after a reboot, put kernel.unprivileged_userns_clone=1 in "
                       "/etc/sysctl.d/60-lizard.conf).",
                "sudo sysctl -w kernel.unprivileged_userns_clone=1"};
    const AppArmorState aa = appArmorState();
    if (aa.restrictsUserns) {
        const std::string why =
            what + " AppArmor restricts unprivileged user namespaces "
                   "(kernel.apparmor_restrict_unprivileged_userns = 1, as on Ubuntu 23.10 and "
                   "later)";
        if (aa.profileInstalled && !aa.profileLoaded)
            return {"USERNS_RESTRICTED",
                    why + ", and lizard-desktop's profile is installed but not loaded.",
                    "sudo apparmor_parser -r /etc/apparmor.d/lizard-agent"};
        const std::string dir = selfExeDir();
        if (dir == "/usr/bin")
            return {"USERNS_RESTRICTED",
                    why +
                        (aa.profileLoaded ? ", and lizard-desktop's profile does not allow it here."
                                          : ", and lizard-desktop's profile is missing.") +
                        " Installing the package again installs and loads "
                        "/etc/apparmor.d/lizard-agent.",
                    "sudo apt install --reinstall lizard-desktop"};
        // A source build: the script of the source tree it came from, when that is still there.
        std::string script = LIZARD_SOURCE_TREE "/scripts/install-apparmor-profile.sh";
        if (::access(script.c_str(), X_OK) != 0)
            script = "scripts/install-apparmor-profile.sh";
        return {"USERNS_RESTRICTED",
                why + "; a source build needs a profile for its own programs in " + dir +
                    ", which scripts/install-apparmor-profile.sh of the source tree writes to "
                    "/etc/apparmor.d/lizard-local-build and loads.",
                "sudo " + script + " " + dir};
    }
    return {"USERNS_UNAVAILABLE",
            what + " Check user.max_user_namespaces, kernel.unprivileged_userns_clone and the "
                   "AppArmor or SELinux policy of this host.",
            ""};
}

SlirpProbe findSlirp()
{
    // slirp4netns opens /dev/net/tun inside the sandbox's namespaces as the server's user.
    // LIZARD_TEST_NO_TUN (tests only) answers as a host whose device is root's 0600 would,
    // so that case stays covered on a host that gives this user the device.
    const bool testNoTun = std::getenv("LIZARD_TEST_NO_TUN") != nullptr;
    if (testNoTun || ::access("/dev/net/tun", R_OK | W_OK) != 0) {
        const std::string why =
            testNoTun ? std::string(std::strerror(EACCES)) : std::string(std::strerror(errno));
        return {{},
                "/dev/net/tun is not usable by this user (" + why +
                    "); Debian and Ubuntu desktops make it 0666, here: sudo chmod 0666 "
                    "/dev/net/tun"};
    }
    for (const char* p :
         {"/usr/bin/slirp4netns", "/usr/local/bin/slirp4netns", "/bin/slirp4netns"}) {
        if (::access(p, X_OK) == 0)
            return {p, {}};
    }
    return {{}, "slirp4netns is not installed: sudo apt-get install slirp4netns"};
}

} // namespace lizard::runtime
