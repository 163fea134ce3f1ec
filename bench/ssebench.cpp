#include "benchmarks.h"
#include "ssecounter.h"
#include "stats.h"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace lizard::bench {

namespace {

// Whole 100-byte lines (99 characters and a newline, like a chatty build log) in `megabytes` MiB.
std::uint64_t sseLines(int megabytes)
{
    return std::uint64_t(megabytes) * 1024 * 1024 / 100;
}

} // namespace

std::string sseCommand(int megabytes)
{
    return "yes " + std::string(99, 'x') + " | head -n " + std::to_string(sseLines(megabytes));
}

Figure measureSse(ApiClient& api, const std::string& sandboxId, int megabytes)
{
    Figure f{.name = "SSE exec throughput",
             .statistic = std::to_string(megabytes) + " MiB, 100 B lines",
             .unit = "MB/s",
             .target = 100,
             .higherIsBetter = true};
    const std::string path = "/api/sandboxes/" + sandboxId + "/exec";
    const std::string body =
        nlohmann::json{{"cmd", sseCommand(megabytes)}, {"timeoutMs", 600000}}.dump();
    SseCounter counter;
    std::string head; // the first bytes, to show when the answer is not a stream
    const auto start = Clock::now();
    const HttpResponse r = api.stream(path, body, [&](const char* data, size_t size) {
        if (head.size() < 300)
            head.append(data, std::min(size, 300 - head.size()));
        counter.feed(data, size);
        return true;
    });
    const double seconds = msSince(start) / 1000.0;
    const std::uint64_t expected = sseLines(megabytes) * 100;
    if (!r.ok())
        f.error = "POST " + path + ": " + r.describe() + " " + head;
    else if (!counter.malformed().empty())
        f.error = "malformed event: " + counter.malformed();
    else if (counter.exitCode() != 0)
        f.error = "the stream ended without {\"exitCode\":0}; first bytes: " + head;
    else if (counter.outputBytes() != expected)
        f.error = "received " + std::to_string(counter.outputBytes()) + " of " +
                  std::to_string(expected) + " bytes";
    if (!f.error.empty())
        return f;
    f.value = double(counter.outputBytes()) / 1e6 / seconds;
    char note[96];
    std::snprintf(note, sizeof note, "%llu lines in %.2f s", (unsigned long long)counter.lines(),
                  seconds);
    f.note = note;
    return f;
}

} // namespace lizard::bench
