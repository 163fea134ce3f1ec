#include "common/instancelock.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/file.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace lizard {

InstanceLock::~InstanceLock()
{
    if (m_fd >= 0)
        ::close(m_fd); // releases the flock
}

Status InstanceLock::acquire(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        return Error{ErrorKind::Internal, "LOCK_FAILED",
                     "cannot open " + path + ": " + std::strerror(errno)};
    // The keeper of a killed server (agent/tools/keeper.h) holds the lock for the few
    // milliseconds of a round of cleanup: a server started at that moment waits it out.
    int err = 0;
    for (int attempt = 0; attempt < 20; ++attempt) {
        err = ::flock(fd, LOCK_EX | LOCK_NB) == 0 ? 0 : errno;
        if (err != EWOULDBLOCK)
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (err != 0) {
        ::close(fd);
        if (err == EWOULDBLOCK)
            return Error{ErrorKind::Conflict, "ALREADY_RUNNING",
                         "another lizard-local holds " + path};
        return Error{ErrorKind::Internal, "LOCK_FAILED",
                     "cannot lock " + path + ": " + std::strerror(err)};
    }
    m_fd = fd;
    return okStatus();
}

Status prepareDataDir(const std::string& dir)
{
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec)
        return Error{ErrorKind::Internal, "DATA_DIR", "cannot create " + dir + ": " + ec.message()};
    struct stat st
    {
    };
    if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
        return Error{ErrorKind::Internal, "DATA_DIR", dir + " is not a directory"};
    if (st.st_uid != ::geteuid())
        return Error{ErrorKind::Internal, "DATA_DIR", dir + " belongs to another user"};
    if ((st.st_mode & 07777) != 0700 && ::chmod(dir.c_str(), 0700) != 0)
        return Error{ErrorKind::Internal, "DATA_DIR",
                     "cannot chmod 0700 " + dir + ": " + std::strerror(errno)};
    return okStatus();
}

} // namespace lizard
