#include "common/fileutil.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace lizard {

bool pathExists(const std::string& path)
{
    return ::access(path.c_str(), F_OK) == 0;
}

Status writeFileAtomic(const std::string& path, const std::string& content, unsigned mode)
{
    const std::string tmp = path + ".tmp";
    ::unlink(tmp.c_str());
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode);
    if (fd < 0)
        return Error{ErrorKind::Internal, "IO_ERROR",
                     "cannot create " + tmp + ": " + std::strerror(errno)};
    ::fchmod(fd, mode); // umask may have removed bits we asked for; never adds any
    size_t done = 0;
    while (done < content.size()) {
        const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            const std::string why = std::strerror(errno);
            ::close(fd);
            ::unlink(tmp.c_str());
            return Error{ErrorKind::Internal, "IO_ERROR", "cannot write " + tmp + ": " + why};
        }
        done += size_t(n);
    }
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
        ::unlink(tmp.c_str());
        return Error{ErrorKind::Internal, "IO_ERROR", "cannot flush " + tmp};
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        const std::string why = std::strerror(errno);
        ::unlink(tmp.c_str());
        return Error{ErrorKind::Internal, "IO_ERROR", "cannot rename to " + path + ": " + why};
    }
    return okStatus();
}

Result<std::string> readSmallFile(const std::string& path, size_t maxBytes)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        if (errno == ENOENT)
            return Error{ErrorKind::NotFound, "NOT_FOUND", path + " does not exist"};
        return Error{ErrorKind::Internal, "IO_ERROR",
                     "cannot open " + path + ": " + std::strerror(errno)};
    }
    std::string out;
    char buf[4096];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            ::close(fd);
            return Error{ErrorKind::Internal, "IO_ERROR", "cannot read " + path};
        }
        if (n == 0)
            break;
        out.append(buf, size_t(n));
        if (out.size() > maxBytes) {
            ::close(fd);
            return Error{ErrorKind::Internal, "IO_ERROR", path + " is too large"};
        }
    }
    ::close(fd);
    return out;
}

} // namespace lizard
