#include "runtime/hostprobe.h"

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

std::string probeUserNamespace()
{
    // In a child, so this process keeps its namespaces; the exit code carries errno.
    const pid_t pid = ::fork();
    if (pid == 0)
        ::_exit(::unshare(CLONE_NEWUSER) == 0 ? 0 : (errno & 0xff));
    if (pid < 0)
        return std::string("fork: ") + std::strerror(errno);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return {};
    const int err = WIFEXITED(status) ? WEXITSTATUS(status) : EPERM;
    return std::string("unshare(CLONE_NEWUSER): ") + std::strerror(err);
}

std::string explainUsernsFailure(const std::string& error)
{
    std::string msg = "user namespaces are not available: " + error + ".";
    if (readLine("/proc/sys/user/max_user_namespaces") == "0")
        return msg + " Fix: sudo sysctl -w user.max_user_namespaces=15000";
    if (readLine("/proc/sys/kernel/unprivileged_userns_clone") == "0")
        return msg + " Fix: sudo sysctl -w kernel.unprivileged_userns_clone=1";
    if (readLine("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") == "1")
        return msg +
               " AppArmor restricts unprivileged user namespaces. Fix: add an AppArmor profile "
               "for lizard-agent with 'userns,' (e.g. /etc/apparmor.d/lizard-agent: "
               "'abi <abi/4.0>, profile lizard-agent /path/to/lizard-agent flags=(unconfined) { "
               "userns, }' "
               "then sudo apparmor_parser -r /etc/apparmor.d/lizard-agent), or "
               "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0";
    return msg + " Check user.max_user_namespaces, kernel.unprivileged_userns_clone and "
                 "AppArmor/SELinux policy.";
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
