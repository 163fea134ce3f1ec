#include "agent/serve/dnsmessage.h"

#include <cctype>
#include <cstring>

namespace lizard::agent::dns {

unsigned u16(const uint8_t* p)
{
    return unsigned(p[0]) << 8 | p[1];
}

bool readQuestion(const uint8_t* p, size_t n, Question& q)
{
    if (n < 12 || u16(p + 4) != 1)
        return false;
    size_t i = 12;
    std::string name;
    for (;;) {
        if (i >= n)
            return false;
        const unsigned len = p[i++];
        if (len == 0)
            break;
        if (len > 63 || i + len > n)
            return false;
        if (!name.empty())
            name += '.';
        for (size_t k = 0; k < len; ++k)
            name += char(std::tolower(p[i + k]));
        i += len;
        if (name.size() > 253)
            return false;
    }
    if (i + 4 > n)
        return false;
    q.name = std::move(name);
    q.end = i + 4;
    return true;
}

namespace {

bool skipName(const uint8_t* p, size_t n, size_t& i)
{
    for (;;) {
        if (i >= n)
            return false;
        const unsigned len = p[i];
        if ((len & 0xC0) == 0xC0) {
            i += 2;
            return i <= n;
        }
        if (len & 0xC0)
            return false;
        i += 1 + len;
        if (len == 0)
            return true;
    }
}

// CNAMEs on the way are the upstream's business.
} // namespace

std::vector<uint32_t> answerAddresses(const uint8_t* p, size_t n, size_t questionEnd)
{
    std::vector<uint32_t> out;
    size_t i = questionEnd;
    for (unsigned left = u16(p + 6); left > 0; --left) {
        if (!skipName(p, n, i) || i + 10 > n)
            break;
        const unsigned type = u16(p + i), cls = u16(p + i + 2), rdlen = u16(p + i + 8);
        i += 10;
        if (i + rdlen > n)
            break;
        if (type == 1 && cls == 1 && rdlen == 4) {
            uint32_t a;
            std::memcpy(&a, p + i, 4);
            out.push_back(a);
        }
        i += rdlen;
    }
    return out;
}

size_t makeError(uint8_t* p, const Question& q, uint8_t rcode)
{
    p[2] = uint8_t((p[2] | 0x80) & ~0x04); // QR, not AA
    p[3] = uint8_t(0x80 | rcode);          // RA
    std::memset(p + 6, 0, 6);              // no answer, authority or additional records
    return q.end;
}

} // namespace lizard::agent::dns

namespace lizard::agent {

bool dnsNameAllowed(const std::string& name, const std::vector<std::string>& patterns)
{
    for (const auto& pattern : patterns) {
        if (pattern.rfind("*.", 0) == 0) {
            const std::string suffix = pattern.substr(1); // ".example.test"
            if (name.size() > suffix.size() &&
                name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
                return true;
        } else if (name == pattern) {
            return true;
        }
    }
    return false;
}

} // namespace lizard::agent
