#pragma once
// How long and how many: the deadlines every API connection lives by and the cap on open
// connections. Production values are below; tests shorten them with the environment
// variable LIZARD_HTTP_LIMITS, e.g. "idleMs=1500,headerMs=1000,maxConnections=16" (keys:
// idleMs, headerMs, bodyGraceMs, bodyMinRate [bytes/s], bodyMs, writeMs, keepaliveMs,
// maxConnections, proxyMaxConnections).

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

namespace lizard::http {

struct ConnectionLimits
{
    using ms = std::chrono::milliseconds;
    // Keep-alive: wait for the first byte of the next request (after an answered request).
    ms idle = std::chrono::seconds(120);
    // The whole request header, from the first byte (or from accept for a new connection,
    // which has not proven it holds the key yet).
    ms header = std::chrono::seconds(20);
    // A body must average bodyMinRate bytes/s once bodyGrace has passed, and be complete
    // within body: 128 MiB at exactly the minimum rate takes 30 s + 512 s < 600 s.
    ms bodyGrace = std::chrono::seconds(30);
    uint64_t bodyMinRate = 256 * 1024;
    ms body = std::chrono::seconds(600);
    // Each write (a client that stops reading an answer or a stream).
    ms write = std::chrono::seconds(120);
    // An event stream that had nothing to say for this long sends an SSE comment, and says so
    // in its X-Lizard-Keepalive-Ms header: a client that then hears nothing for a few
    // intervals knows the connection stalled (a silent command is not a silent stream).
    ms keepalive = std::chrono::seconds(15);
    std::size_t maxConnections = 512;
    // The port proxy's connections, all exposures together (browsers open many at once).
    std::size_t proxyMaxConnections = 512;
};

// Parses "key=value,key=value" over the defaults; unknown keys or bad values are errors.
bool parseConnectionLimits(const std::string& text, ConnectionLimits& limits, std::string* why);

// The process's limits: the defaults, adjusted once by LIZARD_HTTP_LIMITS.
const ConnectionLimits& connectionLimits();

} // namespace lizard::http
