#pragma once
// One reply to the kernel on /dev/fuse: fuse_out_header, then the body, in a buffer of fixed
// capacity (the largest body is a read of max_write bytes). A request that wants no reply
// (FORGET, INTERRUPT) leaves it empty.

#include <cstddef>
#include <cstdint>
#include <linux/fuse.h>
#include <vector>

namespace lizard::agent::quotafs {

class FuseReply
{
public:
    explicit FuseReply(std::size_t bodyCapacity);

    void start(std::uint64_t unique); // a new reply: header only, no error
    void fail(int err);               // errno (positive): header only
    void none() { m_wanted = false; } // no reply at all
    // Appends to the body; false (nothing added) when it would not fit.
    bool add(const void* data, std::size_t n);
    template <class T> bool add(const T& v) { return add(&v, sizeof v); }
    // Room for `n` more body bytes written in place (a read); then grow() by what was written.
    char* room(std::size_t n);
    void grow(std::size_t n) { m_size += n; }
    std::size_t bodySize() const { return m_size - sizeof(fuse_out_header); }
    std::size_t bodyRoom() const { return m_buffer.size() - m_size; }

    bool wanted() const { return m_wanted; }
    int error() const { return m_error; }
    // The message to write: its header filled in.
    const char* message();
    std::size_t size() const { return m_size; }

private:
    std::vector<char> m_buffer;
    std::size_t m_size = 0;
    std::uint64_t m_unique = 0;
    int m_error = 0;
    bool m_wanted = true;
};

} // namespace lizard::agent::quotafs
