#include "agent/hostpackageguard.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace lizard::agent {

namespace {

// apt hands the hook the .deb files it is about to install, one per line. A package is the
// host's when it is installed and one of its regular files belongs to the overflow uid
// (what an unmapped owner looks like in the sandbox); a package installed in the sandbox
// itself has its files in the sandbox's own layer and upgrades normally.
constexpr const char* kHook = R"(#!/bin/sh
# lizard-local: stops apt before dpkg when it would replace a package the host installed
# (lizard-agent's hostpackageguard.h says why).
nobody=$(cat /proc/sys/kernel/overflowuid 2>/dev/null || echo 65534)
blocked=""
while read -r deb; do
    case "$deb" in *.deb) ;; *) continue ;; esac
    pkg=$(dpkg-deb -f "$deb" Package 2>/dev/null) || continue
    arch=$(dpkg-deb -f "$deb" Architecture 2>/dev/null)
    [ "$arch" = all ] && name="$pkg" || name="$pkg:$arch"
    case $(dpkg-query -W -f='${Status}' "$name" 2>/dev/null) in *" installed") ;; *) continue ;; esac
    owner=$(dpkg-query -L "$name" 2>/dev/null | while read -r f; do
        if [ -f "$f" ] && [ ! -L "$f" ]; then stat -c %u "$f"; break; fi
    done)
    [ "$owner" = "$nobody" ] && blocked="$blocked $pkg"
done
[ -z "$blocked" ] && exit 0
echo "lizard: these packages come from the host, and this sandbox cannot replace their files:$blocked" >&2
echo "lizard: lizard-local runs as an ordinary user here, so the host's files belong to an owner the sandbox does not have. Nothing was changed. Packages the host lacks install normally; upgrading the host's own needs lizard-local run as root." >&2
exit 1
)";

constexpr const char* kSetting = "// lizard-local: see /etc/apt/lizard-host-packages\n"
                                 "DPkg::Pre-Install-Pkgs { \"/etc/apt/lizard-host-packages\"; };\n";

std::string writeFile(const std::string& path, const char* text, mode_t mode)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
    const size_t size = std::strlen(text);
    const bool ok = fd >= 0 && ::write(fd, text, size) == ssize_t(size) && ::fchmod(fd, mode) == 0;
    const int err = errno;
    if (fd >= 0)
        ::close(fd);
    return ok ? std::string() : path + ": " + std::strerror(err);
}

} // namespace

std::string writeHostPackageGuard(const std::string& root)
{
    ::mkdir((root + "/etc/apt").c_str(), 0755);
    ::mkdir((root + "/etc/apt/apt.conf.d").c_str(), 0755);
    if (auto e = writeFile(root + "/etc/apt/lizard-host-packages", kHook, 0755); !e.empty())
        return e;
    return writeFile(root + "/etc/apt/apt.conf.d/01lizard-host-packages", kSetting, 0644);
}

} // namespace lizard::agent
