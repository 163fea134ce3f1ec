#include "agent/build/hostusr.h"

#include "agent/build/idmap.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

namespace lizard::agent {

namespace {

std::string errnoText(const char* what)
{
    return std::string(what) + ": " + std::strerror(errno);
}

// A user namespace with the sandbox's maps, only to carry them into the idmap: its one
// process waits until the namespace is opened, then exits (the descriptor keeps it).
int openMapsNamespace(const LaunchConfig& config, std::string* why)
{
    int ready[2], hold[2];
    if (::pipe2(ready, O_CLOEXEC) != 0 || ::pipe2(hold, O_CLOEXEC) != 0) {
        *why = errnoText("pipe");
        return -1;
    }
    pid_t pid = ::fork();
    if (pid == 0) {
        ::close(ready[0]);
        ::close(hold[1]);
        if (::unshare(CLONE_NEWUSER) != 0)
            ::_exit(1);
        char c = 'u';
        [[maybe_unused]] auto w = ::write(ready[1], &c, 1);
        [[maybe_unused]] auto r = ::read(hold[0], &c, 1);
        ::_exit(0);
    }
    ::close(ready[1]);
    ::close(hold[0]);
    int ns = -1;
    char c = 0;
    if (pid < 0) {
        *why = errnoText("fork");
    } else if (::read(ready[0], &c, 1) != 1) {
        *why = "a user namespace for the idmap could not be created";
    } else if (auto e = writeIdMaps(pid, config); !e.empty()) {
        *why = "writing the idmap's maps: " + e;
    } else {
        ns = ::open(("/proc/" + std::to_string(pid) + "/ns/user").c_str(), O_RDONLY | O_CLOEXEC);
        if (ns < 0)
            *why = errnoText("opening the idmap's user namespace");
    }
    ::close(ready[0]);
    ::close(hold[1]);
    if (pid > 0) {
        while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
        }
    }
    return ns;
}

} // namespace

int openIdmappedHostUsr(const LaunchConfig& config, std::string* why)
{
    if (config.idMap.kind != "root")
        return -1;
    int ns = openMapsNamespace(config, why);
    if (ns < 0)
        return -1;
    int tree = ::open_tree(AT_FDCWD, "/usr", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
    if (tree < 0) {
        *why = errnoText("open_tree /usr");
        ::close(ns);
        return -1;
    }
    // Read-only above all: the sandbox's root is host root's owner here, and an overlay never
    // writes its lower layers, but this mount must not be writable even if it were reached.
    mount_attr attr{};
    attr.attr_set = MOUNT_ATTR_IDMAP | MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV;
    attr.userns_fd = std::uint64_t(ns);
    int rc = ::mount_setattr(tree, "", AT_EMPTY_PATH, &attr, sizeof attr);
    int err = errno;
    ::close(ns);
    if (rc != 0) {
        errno = err;
        *why = errnoText("idmapping /usr (mount_setattr)");
        ::close(tree);
        return -1;
    }
    return tree;
}

} // namespace lizard::agent
