#include "agent/tools/treeremover.h"

#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace lizard::agent {

namespace {

int removeAt(int parentFd, const char* name, dev_t device)
{
    struct stat st
    {
    };
    if (::fstatat(parentFd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return errno == ENOENT ? 0 : errno;
    if (!S_ISDIR(st.st_mode))
        return ::unlinkat(parentFd, name, 0) == 0 || errno == ENOENT ? 0 : errno;
    if (st.st_dev != device)
        return EBUSY; // a mount point: never descend into another file system
    // Directories the sandbox made unreadable (chmod 000) must still go.
    ::fchmodat(parentFd, name, 0700, 0);
    int fd = ::openat(parentFd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return errno;
    DIR* dir = ::fdopendir(fd);
    if (!dir) {
        ::close(fd);
        return errno;
    }
    int result = 0;
    while (dirent* e = ::readdir(dir)) {
        if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0)
            continue;
        if (int r = removeAt(fd, e->d_name, device); r != 0 && result == 0)
            result = r;
    }
    ::closedir(dir);
    if (result != 0)
        return result;
    return ::unlinkat(parentFd, name, AT_REMOVEDIR) == 0 || errno == ENOENT ? 0 : errno;
}

} // namespace

std::string removeTreeAt(int parentFd, const std::string& name)
{
    struct stat parent
    {
    };
    if (::fstat(parentFd, &parent) != 0)
        return std::string("stat: ") + std::strerror(errno);
    if (int r = removeAt(parentFd, name.c_str(), parent.st_dev); r != 0)
        return name + ": " + std::strerror(r);
    return {};
}

} // namespace lizard::agent
