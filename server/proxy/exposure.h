#pragma once
// One exposed sandbox port as the proxy sees it.

#include <cstdint>
#include <string>

namespace lizard::proxy {

struct Exposure
{
    std::string sandboxId;
    int port = 0;        // the port inside the sandbox
    std::string address; // the loopback address "127.x.y.z" that serves it (never 127.0.0.1)
    std::string token;   // the sandbox's access token (one per sandbox, shared by its ports)
    int64_t createdAtMs = 0;
};

} // namespace lizard::proxy
