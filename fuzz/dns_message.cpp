// The DNS message reader of a sandbox's allowedHosts forwarder (server/agent/serve/dnsmessage): the
// fuzz bytes are a UDP payload, as sandbox code sends it (a query) or as the network answers
// (an answer). The forwarder reads the question, the answer's IPv4 addresses and the allowed
// names, and turns refused queries into error answers in place.

#include "agent/serve/dnsmessage.h"
#include "fuzz_check.h"

#include <cstring>
#include <vector>

namespace dns = lizard::agent::dns;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size > 4096) // the forwarder's receive buffer
        return 0;
    // An exact-size copy: ASan then sees every read past the datagram.
    std::vector<uint8_t> packet(data, data + size);
    dns::Question q;
    if (!dns::readQuestion(packet.data(), packet.size(), q))
        return 0;
    FUZZ_CHECK(q.end >= 17 &&
               q.end <= packet.size()); // header, at least the root name, type, class
    FUZZ_CHECK(q.name.size() <= 253);
    for (char c : q.name)
        FUZZ_CHECK(!(c >= 'A' && c <= 'Z'));
    const auto addresses = dns::answerAddresses(packet.data(), packet.size(), q.end);
    FUZZ_CHECK(addresses.size() * 16 <= packet.size()); // an A record takes 16 bytes at least
    const bool listed = lizard::agent::dnsNameAllowed(q.name, {"pypi.org", "*.pythonhosted.org"});
    if (listed && q.name != "pypi.org") {
        const std::string suffix = ".pythonhosted.org";
        FUZZ_CHECK(q.name.size() > suffix.size() &&
                   q.name.compare(q.name.size() - suffix.size(), suffix.size(), suffix) == 0);
    }
    const std::vector<uint8_t> before = packet;
    const size_t n = dns::makeError(packet.data(), q, dns::kRefused);
    FUZZ_CHECK(n == q.end);
    FUZZ_CHECK(std::memcmp(packet.data() + 12, before.data() + 12, q.end - 12) ==
               0); // question kept
    FUZZ_CHECK(dns::u16(packet.data() + 6) == 0 && (packet[3] & 0x0F) == dns::kRefused);
    return 0;
}
