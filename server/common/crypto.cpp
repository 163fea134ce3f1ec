#include "common/crypto.h"

#include <cstdio>
#include <cstdlib>
#include <openssl/evp.h>
#include <openssl/rand.h>

namespace lizard {

namespace {

std::string randomFrom(std::string_view alphabet, size_t length)
{
    // Largest multiple of the alphabet size that fits in a byte: bytes above it are dropped.
    const unsigned limit = 256 - (256 % alphabet.size());
    std::string out;
    out.reserve(length);
    unsigned char buf[64];
    while (out.size() < length) {
        if (RAND_bytes(buf, sizeof buf) != 1) {
            // No entropy: refuse to make weak keys or ids.
            std::fputs("lizard-local: RAND_bytes failed, no secure randomness\n", stderr);
            std::abort();
        }
        for (unsigned char b : buf) {
            if (b < limit && out.size() < length)
                out.push_back(alphabet[b % alphabet.size()]);
        }
    }
    return out;
}

} // namespace

std::string randomAlnum(size_t length)
{
    return randomFrom("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", length);
}

std::string randomLowerAlnum(size_t length)
{
    return randomFrom("abcdefghijklmnopqrstuvwxyz0123456789", length);
}

std::string sha256Hex(std::string_view data)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_Digest(data.data(), data.size(), digest, &len, EVP_sha256(), nullptr);
    static const char* hex = "0123456789abcdef";
    std::string out;
    out.reserve(len * 2);
    for (unsigned int i = 0; i < len; ++i) {
        out.push_back(hex[digest[i] >> 4]);
        out.push_back(hex[digest[i] & 0xf]);
    }
    return out;
}

} // namespace lizard
