#pragma once
// A request read from /dev/fuse: its header and a bounded reader over its body. Every read is
// checked against what the request holds, so a short or forged request yields an error, never a
// read past its end.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <linux/fuse.h>

namespace lizard::agent::quotafs {

class RequestBody
{
public:
    RequestBody(const char* data, std::size_t size) : m_data(data), m_left(size) {}

    // Copies the next sizeof(T) bytes into `out` (the body need not be aligned).
    template <class T> bool take(T& out)
    {
        if (m_left < sizeof(T))
            return false;
        std::memcpy(&out, m_data, sizeof(T));
        skip(sizeof(T));
        return true;
    }
    // A NUL-terminated string; nullptr when the body has no NUL left.
    const char* string()
    {
        const void* nul = std::memchr(m_data, '\0', m_left);
        if (!nul)
            return nullptr;
        const char* s = m_data;
        skip(std::size_t(static_cast<const char*>(nul) - m_data) + 1);
        return s;
    }
    // The next `n` bytes in place; nullptr when fewer are left.
    const char* bytes(std::size_t n)
    {
        if (m_left < n)
            return nullptr;
        const char* p = m_data;
        skip(n);
        return p;
    }
    std::size_t left() const { return m_left; }

private:
    void skip(std::size_t n)
    {
        m_data += n;
        m_left -= n;
    }

    const char* m_data;
    std::size_t m_left;
};

struct Request
{
    fuse_in_header header;
    RequestBody body;
};

} // namespace lizard::agent::quotafs
