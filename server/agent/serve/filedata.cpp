// read and write: file bytes travel as D frames ended by Z.
#include "agent/serve/fileops.h"
#include "agent/serve/frame.h"
#include "agent/serve/fsidentity.h"
#include "agent/serve/pathguard.h"

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace lizard::agent {

namespace {

constexpr std::size_t kDataChunk = 256 * 1024;
constexpr std::size_t kMaxUnsizedRead = 64u << 20; // files that report size 0 (/proc ...)

struct FdCloser
{
    int fd;
    ~FdCloser()
    {
        if (fd >= 0)
            ::close(fd);
    }
};

bool readAll(int fd, std::string& out, std::size_t cap)
{
    char buf[65536];
    for (;;) {
        ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return false;
        if (n == 0)
            return true;
        out.append(buf, std::size_t(n));
        if (out.size() > cap) {
            errno = EFBIG;
            return false;
        }
    }
}

// Reads the client's D frames up to Z into `fd` (or discards them when fd < 0).
// Returns 0, an errno of the write, or -1 when the connection broke.
int receiveData(FrameStream& stream, int fd)
{
    int writeError = 0;
    char type = 0;
    std::string payload;
    while (stream.readFrame(type, payload)) {
        if (type == kFrameDataEnd)
            return writeError;
        if (type != kFrameData)
            return -1;
        std::size_t done = 0;
        while (fd >= 0 && writeError == 0 && done < payload.size()) {
            ssize_t n = ::write(fd, payload.data() + done, payload.size() - done);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0)
                writeError = errno;
            else
                done += std::size_t(n);
        }
    }
    return -1;
}

} // namespace

void handleRead(FrameStream& stream, const nlohmann::json& request, AgentContext& context)
{
    auto path = requirePath(stream, request, "path");
    if (!path)
        return;
    auto user = requireUser(stream, request, context);
    if (!user)
        return;
    FsIdentity identity(*user);
    FdCloser file{openNoMagic(*path, O_RDONLY | O_NOCTTY | O_NONBLOCK)};
    if (file.fd < 0)
        return void(writePathErrno(stream, errno, *path));
    struct stat st
    {
    };
    if (::fstat(file.fd, &st) != 0)
        return void(writeErrno(stream, errno, *path));
    if (S_ISDIR(st.st_mode))
        return void(writeErrno(stream, EISDIR, *path));
    if (!S_ISREG(st.st_mode))
        return void(stream.writeError("INVALID_ARGUMENT", *path + ": not a regular file"));
    ::fcntl(file.fd, F_SETFL, 0);
    if (st.st_size == 0) {
        // /proc and /sys files say 0 but have content: read first, then announce the size.
        std::string content;
        if (!readAll(file.fd, content, kMaxUnsizedRead))
            return void(writeErrno(stream, errno, *path));
        if (!stream.writeJson({{"ok", true}, {"size", content.size()}}))
            return;
        for (std::size_t off = 0; off < content.size(); off += kDataChunk) {
            if (!stream.writeFrame(kFrameData, content.data() + off,
                                   std::min(kDataChunk, content.size() - off)))
                return;
        }
        stream.writeFrame(kFrameDataEnd, nullptr, 0);
        return;
    }
    if (!stream.writeJson({{"ok", true}, {"size", std::uint64_t(st.st_size)}}))
        return;
    std::string buffer(kDataChunk, '\0');
    std::uint64_t left = std::uint64_t(st.st_size);
    while (left > 0) {
        ssize_t n = ::read(file.fd, buffer.data(), std::min<std::uint64_t>(buffer.size(), left));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return; // file shrank or broke: closing without Z tells the client it is incomplete
        if (!stream.writeFrame(kFrameData, buffer.data(), std::size_t(n)))
            return;
        left -= std::uint64_t(n);
    }
    stream.writeFrame(kFrameDataEnd, nullptr, 0);
}

void handleWrite(FrameStream& stream, const nlohmann::json& request, AgentContext& context)
{
    auto path = requirePath(stream, request, "path");
    if (!path) // the reply went out; the client's data frames are dropped with the connection
        return;
    auto user = requireUser(stream, request, context);
    if (!user)
        return;
    FsIdentity identity(*user);
    auto fail = [&](int err) {
        if (receiveData(stream, -1) >= 0)
            writeErrno(stream, err, *path);
    };
    if (*path == "/")
        return fail(EISDIR);
    auto refuse = [&] {
        if (receiveData(stream, -1) >= 0)
            stream.writeError("PERMISSION_DENIED", magicLinkMessage(*path));
    };
    if (parentIsMagic(*path))
        return refuse();
    if (int err = makeParents(*path); err != 0)
        return fail(err);
    if (parentIsMagic(*path)) // again, now that the parents exist
        return refuse();
    struct stat existing
    {
    };
    mode_t mode = 0644;
    if (::stat(path->c_str(), &existing) == 0) {
        if (S_ISDIR(existing.st_mode))
            return fail(EISDIR);
        mode = existing.st_mode & 07777;
    }
    auto slash = path->find_last_of('/');
    std::string temp = path->substr(0, slash + 1) + ".lizard-write-XXXXXX";
    FdCloser file{::mkostemp(temp.data(), O_CLOEXEC)};
    if (file.fd < 0)
        return fail(errno);
    int result = receiveData(stream, file.fd);
    if (result == 0 && ::fchmod(file.fd, mode) != 0)
        result = errno;
    if (result != 0) {
        ::unlink(temp.c_str());
        if (result > 0)
            writeErrno(stream, result, *path);
        return;
    }
    if (::rename(temp.c_str(), path->c_str()) != 0) {
        int err = errno;
        ::unlink(temp.c_str());
        return void(writeErrno(stream, err, *path));
    }
    stream.writeJson({{"ok", true}});
}

} // namespace lizard::agent
