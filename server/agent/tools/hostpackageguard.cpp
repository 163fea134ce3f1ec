#include "agent/tools/hostpackageguard.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace lizard::agent {

namespace {

// apt hands the hook what it is about to do (protocol version 2: "VERSION 2", its
// configuration up to a blank line, then "package old-version direction new-version action"
// lines, the action a .deb being unpacked, **REMOVE** or **CONFIGURE**). A package is the
// host's when it is installed and one of its regular files belongs to the overflow uid (what
// an unmapped owner looks like in the sandbox); a package installed in the sandbox itself has
// its files in the sandbox's own layer and upgrades or goes normally.
constexpr const char* kHook = R"(#!/bin/sh
# lizard-local: stops apt before dpkg when it would replace or remove a package the host
# installed (lizard-agent's hostpackageguard.h says why).
nobody=$(cat /proc/sys/kernel/overflowuid 2>/dev/null || echo 65534)
arch=$(dpkg --print-architecture)
blocked=""
while read -r line; do [ -z "$line" ] && break; done
while read -r pkg old dir new action; do
    [ "$old" = "-" ] && continue
    [ "$action" = "**CONFIGURE**" ] && continue
    owner=$({ dpkg-query -L "$pkg" 2>/dev/null || dpkg-query -L "$pkg:$arch" 2>/dev/null; } |
        while read -r f; do
            if [ -f "$f" ] && [ ! -L "$f" ]; then stat -c %u "$f"; break; fi
        done)
    [ "$owner" = "$nobody" ] && blocked="$blocked $pkg"
done
[ -z "$blocked" ] && exit 0
echo "lizard: these packages come from the host, and this sandbox can neither replace nor remove their files:$blocked" >&2
echo "lizard: lizard-local runs as an ordinary user here, so the host's files belong to an owner the sandbox does not have. Nothing was changed. Packages the host lacks install normally; upgrading or removing the host's own needs lizard-local run as root." >&2
exit 1
)";

constexpr const char* kSetting =
    "// lizard-local: see /etc/apt/lizard-host-packages\n"
    "DPkg::Pre-Install-Pkgs { \"/etc/apt/lizard-host-packages\"; };\n"
    "DPkg::Tools::Options::/etc/apt/lizard-host-packages::Version \"2\";\n";

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
