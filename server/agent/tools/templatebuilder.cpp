#include "agent/tools/templatebuilder.h"

#include "agent/tools/desktopscripts.h"
#include "agent/tools/hostpackageguard.h"

#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace lizard::agent {

namespace {

// Public configuration a userland needs. Never shadow, gshadow, ssh/, ssl/private,
// sudoers, machine-id or anything else that is the host's secret or identity.
const char* const kEtcWhitelist[] = {
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "alternatives",
    "ssl/certs",
    "ssl/openssl.cnf",
    "ca-certificates.conf",
    "ca-certificates",
    "fonts",
    "python3",
    "python3.11",
    "python3.12",
    "jupyter",
    "matplotlibrc",
    "nsswitch.conf",
    "bash.bashrc",
    "profile",
    "profile.d",
    "skel",
    "debian_version",
    "os-release",
    "lsb-release",
    "issue",
    "localtime",
    "timezone",
    "mime.types",
    "mailcap",
    "protocols",
    "services",
    "networks",
    "ethertypes",
    "rpc",
    "host.conf",
    "gai.conf",
    "inputrc",
    "locale.alias",
    "locale.gen",
    "locale.conf",
    "default/locale",
    "environment",
    "shells",
    "magic",
    "magic.mime",
    "terminfo",
    "xdg",
    "chromium.d",
    "vim",
    "wgetrc",
    "pip.conf",
    "gitconfig",
    "bindresvport.blacklist",
    "papersize",
    "ImageMagick-6",
    "R",
    "gnutls",
    "logcheck",
    "emacs",
    "nanorc",
    "mke2fs.conf",
    "login.defs",
    "subversion",
};

// apt's and dpkg's configuration and the archive keys; never apt/auth.conf(.d), which holds
// mirror credentials.
const char* const kEtcPackageConfig[] = {
    "apt/apt.conf.d",  "apt/preferences.d", "apt/sources.list", "apt/sources.list.d",
    "apt/trusted.gpg", "apt/trusted.gpg.d", "apt/keyrings",     "dpkg",
    "debconf.conf",    "adduser.conf",      "deluser.conf",     "ucf.conf",
};

// The package manager's state, so that apt and dpkg know what the host has installed
// (/var/lib/dpkg/status and the file lists). Not debconf's passwords.dat (secrets) nor apt's
// package lists and archives (large; `apt-get update` fetches the sandbox's own).
const char* const kVarPackageState[] = {
    "lib/dpkg",
    "lib/apt/extended_states",
    "lib/ucf",
    "cache/debconf/config.dat",
    "cache/debconf/templates.dat",
};

std::string err(const std::string& what)
{
    return what + ": " + std::strerror(errno);
}

bool makeDir(const std::string& path, mode_t mode)
{
    if (::mkdir(path.c_str(), mode) != 0 && errno != EEXIST)
        return false;
    return ::chmod(path.c_str(), mode) == 0;
}

bool writeText(const std::string& path, const std::string& text, mode_t mode = 0644)
{
    std::ofstream out(path, std::ios::trunc);
    out << text;
    out.close();
    return out.good() && ::chmod(path.c_str(), mode) == 0;
}

// Copies a host file, symlink or directory tree; unreadable parts, and files whose name ends
// in `skipSuffix` (when given), are skipped.
void copyTree(const std::string& from, const std::string& to, const std::string& skipSuffix = {})
{
    struct stat st
    {
    };
    if (::lstat(from.c_str(), &st) != 0)
        return;
    if (S_ISLNK(st.st_mode)) {
        std::string target(4096, '\0');
        ssize_t n = ::readlink(from.c_str(), target.data(), target.size());
        if (n > 0) {
            target.resize(std::size_t(n));
            [[maybe_unused]] int r = ::symlink(target.c_str(), to.c_str());
        }
    } else if (S_ISDIR(st.st_mode)) {
        DIR* dir = ::opendir(from.c_str());
        if (!dir || !makeDir(to, st.st_mode & 0755)) {
            if (dir)
                ::closedir(dir);
            return;
        }
        while (dirent* e = ::readdir(dir)) {
            std::string name = e->d_name;
            if (name != "." && name != ".." &&
                (skipSuffix.empty() || name.size() < skipSuffix.size() ||
                 name.compare(name.size() - skipSuffix.size(), skipSuffix.size(), skipSuffix) != 0))
                copyTree(from + "/" + name, to + "/" + name, skipSuffix);
        }
        ::closedir(dir);
    } else if (S_ISREG(st.st_mode)) {
        int in = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
        if (in < 0)
            return;
        int out = ::open(to.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, st.st_mode & 0755);
        char buf[65536];
        ssize_t n;
        while (out >= 0 && (n = ::read(in, buf, sizeof buf)) > 0) {
            if (::write(out, buf, std::size_t(n)) != n)
                break;
        }
        ::close(in);
        if (out >= 0)
            ::close(out);
    }
}

std::vector<std::string> hostPythonDirs()
{
    std::vector<std::string> out;
    DIR* dir = ::opendir("/usr/lib");
    if (!dir)
        return out;
    while (dirent* e = ::readdir(dir)) {
        std::string name = e->d_name;
        if (name.rfind("python3.", 0) == 0)
            out.push_back(name);
    }
    ::closedir(dir);
    return out;
}

// /var/lib/dpkg and the rest of kVarPackageState, the directories apt expects, and in
// single-uid mode the setting that keeps apt's downloads as root.
std::string copyPackageState(const LaunchConfig& config, bool usrIdmapped)
{
    for (const char* entry : kEtcPackageConfig) {
        std::string to = std::string("root/etc/") + entry;
        makeDir(to.substr(0, to.find_last_of('/')), 0755);
        copyTree(std::string("/etc/") + entry, to);
    }
    for (const char* entry : kVarPackageState) {
        std::string to = std::string("root/var/") + entry;
        makeDir(to.substr(0, to.find_last_of('/')), 0755);
        // The files' checksums (a third of /var/lib/dpkg) serve `dpkg --verify` only.
        copyTree(std::string("/var/") + entry, to, ".md5sums");
    }
    for (const char* d :
         {"root/var/lib/apt/lists", "root/var/lib/apt/lists/partial", "root/var/cache/apt",
          "root/var/cache/apt/archives", "root/var/cache/apt/archives/partial", "root/var/log/apt",
          "root/var/lib/dpkg/updates", "root/var/lib/dpkg/triggers", "root/var/lib/dpkg/info",
          // man-db's trigger makes it as user man (absent here) when it is missing
          "root/var/cache/man"}) {
        if (!makeDir(d, 0755))
            return err(d);
    }
    // The host's overrides name host groups the sandbox lacks (dpkg then refuses to run) and
    // host files the sandbox cannot own.
    if (!writeText("root/var/lib/dpkg/statoverride", ""))
        return err("var/lib/dpkg/statoverride");
    if (config.idMap.kind == "single") {
        makeDir("root/etc/apt", 0755);
        makeDir("root/etc/apt/apt.conf.d", 0755);
        if (!writeText("root/etc/apt/apt.conf.d/00lizard-sandbox-user",
                       "APT::Sandbox::User \"root\";\n"))
            return err("apt.conf.d/00lizard-sandbox-user");
    }
    return usrIdmapped ? std::string() : writeHostPackageGuard("root");
}

std::string buildRoot(const LaunchConfig& config, bool usrIdmapped)
{
    for (const char* d :
         {"root", "root/etc", "root/home", "root/var", "root/var/log", "root/var/cache",
          "root/var/lib", "root/var/mail", "root/opt", "root/srv", "root/mnt", "root/media",
          "root/run", "root/usr", "root/proc", "root/dev", "root/sys", "root/etc/ssl"}) {
        if (!makeDir(d, 0755))
            return err(d);
    }
    for (const char* d : {"root/tmp", "root/var/tmp"}) {
        if (!makeDir(d, 01777))
            return err(d);
    }
    if (!makeDir("root/root", 0700))
        return err("root/root");
    if (!makeDir("root/home/user", 0755))
        return err("root/home/user");
    for (const char* f : {".bashrc", ".profile", ".bash_logout"}) {
        copyTree(std::string("/etc/skel/") + f, std::string("root/home/user/") + f);
        copyTree(std::string("/etc/skel/") + f, std::string("root/root/") + f);
    }
    for (const char* entry : kEtcWhitelist) {
        std::string to = std::string("root/etc/") + entry;
        if (auto slash = to.find_last_of('/'); slash != std::string::npos)
            makeDir(to.substr(0, slash), 0755);
        copyTree(std::string("/etc/") + entry, to);
    }
    if (auto e = copyPackageState(config, usrIdmapped); !e.empty())
        return e;
    // apt downloads as _apt (uid 42 on Debian); with a single uid mapped there is no second
    // user, so apt is told to stay root (copyPackageState).
    const bool fullRange = config.idMap.kind != "single";
    std::string passwd = "root:x:0:0:root:/root:/bin/bash\n";
    if (fullRange)
        passwd += "_apt:x:42:65534::/nonexistent:/usr/sbin/nologin\n";
    passwd += "user:x:1000:1000:user:/home/user:/bin/bash\n"
              "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n";
    const std::pair<const char*, std::string> files[] = {
        {"root/etc/passwd", passwd},
        {"root/etc/group", "root:x:0:\nuser:x:1000:\nnogroup:x:65534:\n"},
        {"root/etc/hostname", "lizard\n"},
        {"root/etc/hosts",
         "127.0.0.1\tlocalhost lizard\n::1\tlocalhost ip6-localhost ip6-loopback\n"},
    };
    for (const auto& [path, text] : files) {
        if (!writeText(path, text))
            return err(path);
    }
    if (config.resolvConf && !writeText("root/etc/resolv.conf", "nameserver 10.0.2.3\n"))
        return err("resolv.conf");
    for (const auto& [link, target] :
         {std::pair{"root/bin", "usr/bin"}, std::pair{"root/lib", "usr/lib"},
          std::pair{"root/lib64", "usr/lib64"}, std::pair{"root/sbin", "usr/sbin"}}) {
        if (::symlink(target, link) != 0 && errno != EEXIST)
            return err(link);
    }
    // uid 1000 exists only when the full range is mapped; otherwise home stays root's (= the user).
    if (config.idMap.kind != "single") {
        for (const char* p : {"root/home/user", "root/home/user/.bashrc", "root/home/user/.profile",
                              "root/home/user/.bash_logout"}) {
            if (::lchown(p, 1000, 1000) != 0 && errno != ENOENT)
                return err(std::string("chown ") + p);
        }
    }
    return {};
}

std::string buildUsrLocal(const std::string& top)
{
    for (const char* d : {"", "/bin", "/sbin", "/lib", "/include", "/share", "/share/man", "/src",
                          "/etc", "/games"}) {
        if (!makeDir(top + d, 0755))
            return err(top + d);
    }
    for (const auto& py : hostPythonDirs()) {
        std::string base = top + "/lib/" + py;
        if (!makeDir(base, 0755) || !makeDir(base + "/dist-packages", 0755))
            return err(base);
    }
    if (::symlink("share/man", (top + "/man").c_str()) != 0 && errno != EEXIST)
        return err(top + "/man");
    return {};
}

// The desktop template's /usr/local: the same, plus its own commands (desktopscripts.h), so
// that on the other templates `lizard-desktop` is not found (exit 127).
std::string buildDesktopUsrLocal()
{
    if (auto e = buildUsrLocal("usr-local-desktop"); !e.empty())
        return e;
    for (const auto& tool : desktopTools()) {
        const std::string path = std::string("usr-local-desktop/bin/") + tool.name;
        if (!writeText(path, tool.text, 0755))
            return err(path);
    }
    return {};
}

// Recreates the directories under host directory `from` (not following links) in `to`
// with their modes. Returns false only when `to` could not be made.
bool mirrorDirs(int fromParent, const char* name, int toParent, mode_t mode, int levelsLeft)
{
    // The umask is 0 here (buildUsrDirs): the mode is exact without a chmod per directory.
    if (::mkdirat(toParent, name, mode) != 0 && errno != EEXIST)
        return false;
    int from = ::openat(fromParent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (from < 0 || levelsLeft == 0)
        return true; // unreadable for the sandbox's root: it cannot write below it either
    int to = ::openat(toParent, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR* dir = to >= 0 ? ::fdopendir(from) : nullptr;
    if (!dir) {
        ::close(from);
        if (to >= 0)
            ::close(to);
        return to >= 0;
    }
    while (dirent* e = ::readdir(dir)) {
        const std::string child = e->d_name;
        if (child == "." || child == ".." || (e->d_type != DT_DIR && e->d_type != DT_UNKNOWN))
            continue;
        struct stat st
        {
        };
        if (::fstatat(::dirfd(dir), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            S_ISDIR(st.st_mode))
            mirrorDirs(::dirfd(dir), e->d_name, to, st.st_mode & 07777, levelsLeft - 1);
    }
    ::closedir(dir);
    ::close(to);
    return true;
}

// How deep below /usr the directories are copied. Where packages put files of their own
// (bin, lib/<triplet>/<plugin dir>/<version>/<kind>, share/man/<lang>/man1,
// share/icons/<theme>/<size>/apps) lies within five levels; below are packages' private trees
// (google-cloud-sdk, python modules, boost), three quarters of the directories on a
// developer's host, which would cost every template seconds to make and to delete.
constexpr int kUsrDirsDepth = 5;

// The directories of the host's /usr, owned by the sandbox's root: the middle layer of the
// sandbox's /usr overlay (sandboxroot.cpp). The host's directories belong to the host's root,
// which is not mapped in the sandbox, so without this layer nobody in the sandbox could add a
// file to /usr/bin. /usr/local is the sandbox's own overlay and left out.
std::string buildUsrDirs(bool usrIdmapped)
{
    if (!makeDir("usr-dirs", 0755))
        return err("usr-dirs");
    if (usrIdmapped)
        return {};
    int usr = ::open("/usr", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int to = ::open("usr-dirs", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR* dir = usr >= 0 && to >= 0 ? ::fdopendir(usr) : nullptr;
    if (!dir) {
        if (usr >= 0)
            ::close(usr);
        if (to >= 0)
            ::close(to);
        return err("reading /usr");
    }
    std::string failed;
    const mode_t mask = ::umask(0);
    while (dirent* e = ::readdir(dir)) {
        const std::string name = e->d_name;
        struct stat st
        {
        };
        if (name == "." || name == ".." || name == "local" ||
            ::fstatat(::dirfd(dir), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISDIR(st.st_mode))
            continue;
        if (!mirrorDirs(::dirfd(dir), e->d_name, to, st.st_mode & 07777, kUsrDirsDepth - 1))
            failed = err("usr-dirs/" + name);
    }
    ::umask(mask);
    ::closedir(dir);
    ::close(to);
    return failed;
}

} // namespace

// matplotlib's list of the fonts, which it otherwise builds at the first chart of every sandbox
// (about half a second): made once here, by the host's python3 and matplotlib (the sandboxes'
// /usr), for root (as whom the code runners run) and for user. Where the host has no matplotlib
// nothing is made; a list that no longer matches the fonts is rebuilt by matplotlib itself. The
// file name carries matplotlib's cache version (3.6 on Debian 12): another version ignores it.
void buildFontCache(const LaunchConfig& config)
{
    // matplotlib writes its cache where it finds a writable directory by its absolute path,
    // which the template's staging directory is not from here: a scratch directory is, and the
    // list is copied from it.
    char scratch[] = "/tmp/lizard-fontcache-XXXXXX";
    if (!::mkdtemp(scratch))
        return;
    const std::string made = std::string(scratch) + "/fontlist-v330.json";
    const pid_t pid = ::fork();
    if (pid == 0) {
        const int null = ::open("/dev/null", O_RDWR);
        ::dup2(null, 0);
        ::dup2(null, 1);
        ::dup2(null, 2);
        ::setenv("MPLCONFIGDIR", scratch, 1);
        ::setenv("HOME", scratch, 1);
        ::alarm(60);
        ::execl("/usr/bin/python3", "python3", "-c", "import matplotlib.font_manager", nullptr);
        ::_exit(127);
    }
    int status = 0;
    const bool ran = pid > 0 && ::waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
                     WEXITSTATUS(status) == 0 && ::access(made.c_str(), R_OK) == 0;
    if (ran) {
        for (const char* home : {"root/root", "root/home/user"}) {
            const std::string cache = std::string(home) + "/.cache";
            if (makeDir(cache, 0755) && makeDir(cache + "/matplotlib", 0755))
                copyTree(made, cache + "/matplotlib/fontlist-v330.json");
        }
        // uid 1000 exists only when the full range is mapped
        if (config.idMap.kind != "single")
            for (const char* p : {"root/home/user/.cache", "root/home/user/.cache/matplotlib",
                                  "root/home/user/.cache/matplotlib/fontlist-v330.json"})
                [[maybe_unused]] const int r = ::lchown(p, 1000, 1000);
    }
    ::unlink(made.c_str());
    if (DIR* d = ::opendir(scratch)) { // whatever else matplotlib left there
        while (dirent* e = ::readdir(d))
            if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0)
                ::unlink((std::string(scratch) + "/" + e->d_name).c_str());
        ::closedir(d);
    }
    ::rmdir(scratch);
}

std::string buildTemplate(int dirFd, const LaunchConfig& config, bool usrIdmapped)
{
    if (::fchdir(dirFd) != 0)
        return err("fchdir to the template directory");
    ::umask(022);
    if (auto e = buildRoot(config, usrIdmapped); !e.empty())
        return e;
    buildFontCache(config);
    if (auto e = buildUsrDirs(usrIdmapped); !e.empty())
        return e;
    if (auto e = buildUsrLocal("usr-local"); !e.empty())
        return e;
    return buildDesktopUsrLocal();
}

} // namespace lizard::agent
