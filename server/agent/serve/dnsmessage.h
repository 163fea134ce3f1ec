#pragma once
// The few pieces of a DNS message (RFC 1035) the sandbox's DNS forwarder reads and writes: the
// one question of a query or answer, the IPv4 addresses of an answer, an error answer. Every
// read is bounds-checked: the input comes from sandbox code (queries) or from the network
// (answers), and the forwarder runs with CAP_NET_ADMIN over the sandbox's network.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace lizard::agent::dns {

struct Question
{
    std::string name; // lower case, no trailing dot
    size_t end = 0;   // offset after QTYPE and QCLASS
};

constexpr uint8_t kServFail = 2;
constexpr uint8_t kRefused = 5;

// The 16-bit big-endian number at p.
unsigned u16(const uint8_t* p);

// The one question of the message p[0..n) (no compression in a question); false if malformed
// or not exactly one question.
bool readQuestion(const uint8_t* p, size_t n, Question& q);

// The A records (IPv4, network order) of the answer section that follows the question.
std::vector<uint32_t> answerAddresses(const uint8_t* p, size_t n, size_t questionEnd);

// Rewrites the query p (at least q.end bytes, read by readQuestion) into an answer with
// `rcode`: header and question kept, nothing else. Returns its length, q.end.
size_t makeError(uint8_t* p, const Question& q, uint8_t rcode);

} // namespace lizard::agent::dns

namespace lizard::agent {

// True if `name` (lower case, no trailing dot) is one of `patterns` or, for a pattern "*.x",
// a subdomain of x (never x itself).
bool dnsNameAllowed(const std::string& name, const std::vector<std::string>& patterns);

} // namespace lizard::agent
