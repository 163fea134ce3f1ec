#include "runtime/ext4image.h"

#include "runtime/hostcommand.h"
#include "runtime/loopdevice.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

namespace lizard::runtime {

namespace {

Error imageIoError(const std::string& what)
{
    return Error{ErrorKind::Internal, "INTERNAL", what + ": " + std::strerror(errno)};
}

// Copies [offset, offset + length) with copy_file_range (in-kernel, no user-space buffer).
bool copyRange(int in, int out, off_t offset, off_t length)
{
    off_t inOff = offset, outOff = offset;
    while (length > 0) {
        const ssize_t n = ::copy_file_range(in, &inOff, out, &outOff, size_t(length), 0);
        if (n <= 0)
            return false;
        length -= n;
    }
    return true;
}

} // namespace

Status makeExt4Image(const std::string& mkfs, const std::string& image, long long sizeBytes,
                     const std::vector<std::string>& mkfsOptions, const std::string& errorCode)
{
    int fd = ::open(image.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return imageIoError(image);
    const bool sized = ::ftruncate(fd, sizeBytes) == 0;
    Status s = sized ? okStatus() : imageIoError(image);
    ::close(fd);
    if (s) {
        std::vector<std::string> argv{mkfs, "-q", "-F"};
        argv.insert(argv.end(), mkfsOptions.begin(), mkfsOptions.end());
        argv.push_back(image);
        s = runHostCommand(argv, 60000, errorCode);
    }
    if (!s)
        ::unlink(image.c_str());
    return s;
}

Status copySparseFile(const std::string& from, const std::string& to)
{
    int in = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
    if (in < 0)
        return imageIoError(from);
    int out = ::open(to.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (out < 0) {
        Status s = imageIoError(to);
        ::close(in);
        return s;
    }
    struct stat st
    {
    };
    bool ok = ::fstat(in, &st) == 0;
    if (ok && ::ioctl(out, FICLONE, in) != 0) {
        ok = ::ftruncate(out, st.st_size) == 0;
        off_t pos = 0;
        while (ok && pos < st.st_size) {
            const off_t data = ::lseek(in, pos, SEEK_DATA);
            if (data < 0) {
                ok = errno == ENXIO; // no data after pos: the rest is a hole
                break;
            }
            off_t hole = ::lseek(in, data, SEEK_HOLE);
            if (hole < 0)
                hole = st.st_size;
            ok = copyRange(in, out, data, hole - data);
            pos = hole;
        }
    }
    Status s = ok ? okStatus() : imageIoError("copying " + from + " to " + to);
    ::close(in);
    ::close(out);
    if (!s)
        ::unlink(to.c_str());
    return s;
}

std::string probeExt4Mount(const std::string& mkfs, const std::string& workDir)
{
    if (::mkdir(workDir.c_str(), 0700) != 0 && errno != EEXIST)
        return workDir + ": " + std::strerror(errno);
    const std::string image = workDir + "/.probe.img", mnt = workDir + "/.probe-mnt";
    ::umount2(mnt.c_str(), MNT_DETACH);
    ::unlink(image.c_str());
    ::rmdir(mnt.c_str());
    Status s = makeExt4Image(mkfs, image, 16LL * 1024 * 1024, {}, "INTERNAL");
    if (s && ::mkdir(mnt.c_str(), 0700) != 0)
        s = imageIoError(mnt);
    if (s)
        s = mountImage(image, mnt);
    if (s)
        ::umount2(mnt.c_str(), 0);
    ::unlink(image.c_str());
    ::rmdir(mnt.c_str());
    return s ? std::string() : "an ext4 image cannot be mounted here: " + s.error().message;
}

} // namespace lizard::runtime
