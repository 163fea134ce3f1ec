#include "benchmarks.h"
#include "keepaliveconnection.h"
#include "stats.h"

#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

namespace lizard::bench {

namespace {

struct WorkerTally
{
    long ok = 0;
    long failed = 0;
    int reconnects = 0;
    std::string firstError;
};

} // namespace

Figure measureGetRate(const ApiClient& api, const std::string& sandboxId, int connections,
                      double seconds)
{
    char statistic[64];
    std::snprintf(statistic, sizeof statistic, "%d conns, %.0f s", connections, seconds);
    Figure f{.name = "GET /api/sandboxes/{id}",
             .statistic = statistic,
             .unit = "req/s",
             .target = 50000,
             .higherIsBetter = true};
    HostPort target;
    if (!parseHttpUrl(api.baseUrl(), target)) {
        f.error = "only http:// URLs are supported for this figure: " + api.baseUrl();
        return f;
    }
    const std::string request =
        "GET /api/sandboxes/" + sandboxId + " HTTP/1.1\r\nHost: " + target.host + ":" +
        target.port + "\r\nX-API-Key: " + api.apiKey() + "\r\nAccept: application/json\r\n\r\n";
    std::atomic<bool> stop{false};
    std::vector<WorkerTally> tallies(static_cast<size_t>(connections));
    std::vector<std::thread> workers;
    const auto start = Clock::now();
    for (int i = 0; i < connections; ++i) {
        workers.emplace_back([&, i] {
            KeepAliveConnection conn(target);
            WorkerTally& t = tallies[size_t(i)];
            while (!stop.load(std::memory_order_relaxed)) {
                const int status = conn.roundTrip(request);
                if (status == 200) {
                    ++t.ok;
                    continue;
                }
                ++t.failed;
                if (t.firstError.empty())
                    t.firstError = status == 0 ? conn.error() : "HTTP " + std::to_string(status);
                if (status == 0)
                    break; // the connection is unusable; do not spin
            }
            t.reconnects = conn.reconnects();
        });
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    stop = true;
    for (std::thread& w : workers)
        w.join();
    const double elapsed = msSince(start) / 1000.0;
    WorkerTally sum;
    for (const WorkerTally& t : tallies) {
        sum.ok += t.ok;
        sum.failed += t.failed;
        sum.reconnects += std::max(0, t.reconnects);
        if (sum.firstError.empty())
            sum.firstError = t.firstError;
    }
    if (sum.failed > 0) {
        f.error = std::to_string(sum.failed) + " failed requests, first: " + sum.firstError;
        return f;
    }
    f.value = double(sum.ok) / elapsed;
    f.note =
        std::to_string(sum.ok) + " answers 200, " + std::to_string(sum.reconnects) + " reconnects";
    return f;
}

} // namespace lizard::bench
