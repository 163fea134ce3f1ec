#pragma once
// A POSIX tar stream (ustar headers, with pax records for what ustar cannot hold: long paths and
// link targets, sizes from 8 GiB, large ids), written to a descriptor as it goes. GNU tar,
// bsdtar and Python's tarfile read it. Errors are texts (empty: written).

#include <cstdint>
#include <string>
#include <string_view>
#include <sys/stat.h>

namespace lizard::agent {

// All of `data` to `fd` (short writes and EINTR taken care of): an error text, empty when written.
std::string writeAll(int fd, std::string_view data);

class TarWriter
{
public:
    explicit TarWriter(int fd) : m_fd(fd) {}
    TarWriter(const TarWriter&) = delete;
    TarWriter& operator=(const TarWriter&) = delete;

    // `path`: relative, without a leading slash. Mode, owner and time come from `st`.
    std::string directory(const std::string& path, const struct stat& st);
    std::string symlink(const std::string& path, const struct stat& st, const std::string& target);
    std::string fifo(const std::string& path, const struct stat& st);
    // `size` bytes read from `fd`: a file that shrank meanwhile is padded with zeros, one that
    // grew is cut, so the stream always holds what its header says.
    std::string file(const std::string& path, const struct stat& st, int fd, std::uint64_t size);
    // An empty regular file with no owner: what image layers use to mark a deletion.
    std::string emptyFile(const std::string& path, unsigned mode, std::int64_t mtime);
    // The two zero blocks that end an archive, and whatever is still buffered.
    std::string finish();

private:
    std::string entry(char type, const std::string& path, unsigned mode, std::uint64_t uid,
                      std::uint64_t gid, std::uint64_t size, std::int64_t mtime,
                      const std::string& link);
    std::string put(const char* data, std::size_t n);
    std::string pad(std::uint64_t written);
    std::string flush();

    int m_fd;
    std::string m_buffer;
};

} // namespace lizard::agent
