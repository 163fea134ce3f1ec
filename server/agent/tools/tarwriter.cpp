#include "agent/tools/tarwriter.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace lizard::agent {

namespace {

constexpr std::size_t kBlock = 512;
constexpr std::size_t kFlushAt = 256 * 1024;

// The largest value an octal field of `width` bytes holds (width - 1 digits and a NUL).
std::uint64_t octalMax(std::size_t width)
{
    return (std::uint64_t(1) << (3 * (width - 1))) - 1;
}

void octal(char* field, std::size_t width, std::uint64_t value)
{
    value = std::min(value, octalMax(width));
    field[width - 1] = '\0';
    for (std::size_t i = width - 1; i-- > 0;) {
        field[i] = char('0' + (value & 7));
        value >>= 3;
    }
}

// One pax record: "<length> <key>=<value>\n", the length counting itself.
std::string paxRecord(const std::string& key, const std::string& value)
{
    const std::size_t body = key.size() + value.size() + 3; // space, '=', newline
    std::size_t length = body + 1;
    while (std::to_string(length).size() + body != length)
        length = std::to_string(length).size() + body;
    return std::to_string(length) + " " + key + "=" + value + "\n";
}

} // namespace

std::string TarWriter::put(const char* data, std::size_t n)
{
    m_buffer.append(data, n);
    return m_buffer.size() >= kFlushAt ? flush() : std::string();
}

std::string writeAll(int fd, std::string_view data)
{
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return std::string("writing: ") + std::strerror(errno);
        done += std::size_t(n);
    }
    return {};
}

std::string TarWriter::flush()
{
    if (auto e = writeAll(m_fd, m_buffer); !e.empty())
        return "the archive: " + e;
    m_buffer.clear();
    return {};
}

std::string TarWriter::pad(std::uint64_t written)
{
    static const char zeros[kBlock] = {};
    const std::size_t rest = std::size_t(written % kBlock);
    return rest ? put(zeros, kBlock - rest) : std::string();
}

std::string TarWriter::entry(char type, const std::string& path, unsigned mode, std::uint64_t uid,
                             std::uint64_t gid, std::uint64_t size, std::int64_t mtime,
                             const std::string& link)
{
    std::string pax;
    if (path.size() > 100)
        pax += paxRecord("path", path);
    if (link.size() > 100)
        pax += paxRecord("linkpath", link);
    if (size > octalMax(12))
        pax += paxRecord("size", std::to_string(size));
    if (uid > octalMax(8))
        pax += paxRecord("uid", std::to_string(uid));
    if (gid > octalMax(8))
        pax += paxRecord("gid", std::to_string(gid));
    if (!pax.empty()) {
        const std::string base = path.substr(path.rfind('/', path.size() - 2) + 1);
        if (auto e = entry('x', ("PaxHeaders/" + base).substr(0, 100), 0644, 0, 0, pax.size(),
                           mtime, {});
            !e.empty())
            return e;
        if (auto e = put(pax.data(), pax.size()); !e.empty())
            return e;
        if (auto e = pad(pax.size()); !e.empty())
            return e;
    }
    char h[kBlock] = {};
    std::memcpy(h, path.data(), std::min<std::size_t>(path.size(), 100));
    octal(h + 100, 8, mode & 07777);
    octal(h + 108, 8, uid);
    octal(h + 116, 8, gid);
    octal(h + 124, 12, size);
    octal(h + 136, 12, std::uint64_t(std::max<std::int64_t>(mtime, 0)));
    std::memset(h + 148, ' ', 8);
    h[156] = type;
    std::memcpy(h + 157, link.data(), std::min<std::size_t>(link.size(), 100));
    std::memcpy(h + 257, "ustar", 6);
    std::memcpy(h + 263, "00", 2);
    unsigned sum = 0;
    for (const char c : h)
        sum += static_cast<unsigned char>(c);
    octal(h + 148, 7, sum);
    h[155] = ' ';
    return put(h, kBlock);
}

std::string TarWriter::directory(const std::string& path, const struct stat& st)
{
    return entry('5', path.back() == '/' ? path : path + "/", st.st_mode, st.st_uid, st.st_gid, 0,
                 st.st_mtim.tv_sec, {});
}

std::string TarWriter::symlink(const std::string& path, const struct stat& st,
                               const std::string& target)
{
    return entry('2', path, st.st_mode, st.st_uid, st.st_gid, 0, st.st_mtim.tv_sec, target);
}

std::string TarWriter::fifo(const std::string& path, const struct stat& st)
{
    return entry('6', path, st.st_mode, st.st_uid, st.st_gid, 0, st.st_mtim.tv_sec, {});
}

std::string TarWriter::emptyFile(const std::string& path, unsigned mode, std::int64_t mtime)
{
    return entry('0', path, mode, 0, 0, 0, mtime, {});
}

std::string TarWriter::file(const std::string& path, const struct stat& st, int fd,
                            std::uint64_t size)
{
    if (auto e = entry('0', path, st.st_mode, st.st_uid, st.st_gid, size, st.st_mtim.tv_sec, {});
        !e.empty())
        return e;
    std::uint64_t done = 0;
    char chunk[65536];
    while (done < size) {
        const ssize_t n =
            ::read(fd, chunk, std::size_t(std::min<std::uint64_t>(sizeof chunk, size - done)));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) { // shorter than it was (or unreadable): zeros keep the stream whole
            std::memset(chunk, 0, sizeof chunk);
            while (done < size) {
                const auto z = std::size_t(std::min<std::uint64_t>(sizeof chunk, size - done));
                if (auto e = put(chunk, z); !e.empty())
                    return e;
                done += z;
            }
            break;
        }
        if (auto e = put(chunk, std::size_t(n)); !e.empty())
            return e;
        done += std::uint64_t(n);
    }
    return pad(size);
}

std::string TarWriter::finish()
{
    static const char zeros[2 * kBlock] = {};
    if (auto e = put(zeros, sizeof zeros); !e.empty())
        return e;
    return flush();
}

} // namespace lizard::agent
