#include "agent/serve/lease.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <system_error>
#include <thread>
#include <unistd.h>

namespace lizard::agent {

namespace {

using namespace std::chrono;

constexpr auto kTick = milliseconds(250);
// A gap this long between two ticks means the sandbox (or the host) was frozen.
constexpr auto kFrozenGap = seconds(3);
// How long after its deadline PID 1 waits for lizard-local to end the sandbox itself (and
// clean up): 30 s, or a quarter of a shorter grace period.
constexpr std::int64_t kDeadlineMarginMs = 30000;

std::int64_t steadyNs()
{
    return duration_cast<nanoseconds>(steady_clock::now().time_since_epoch()).count();
}

std::int64_t unixMs()
{
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

} // namespace

void Lease::renew(std::int64_t endAtMs, std::int64_t graceMs)
{
    m_endAtMs = endAtMs > 0 ? endAtMs : 0;
    m_graceMs = graceMs > 0 ? graceMs : 0;
    m_renewedNs = steadyNs();
}

bool Lease::start()
{
    if (m_renewedNs.load() == 0)
        m_renewedNs = steadyNs();
    try {
        std::thread([this] { watch(); }).detach();
        return true;
    } catch (const std::system_error&) {
        return false;
    }
}

void Lease::watch()
{
    std::int64_t lastTick = steadyNs();
    for (;;) {
        std::this_thread::sleep_for(kTick);
        const std::int64_t now = steadyNs();
        if (now - lastTick > duration_cast<nanoseconds>(kFrozenGap).count())
            m_renewedNs = now; // thawed: lizard-local gets a fresh grace period to renew
        lastTick = now;
        const std::int64_t grace = m_graceMs.load();
        const std::int64_t endAt = m_endAtMs.load();
        const std::int64_t margin =
            grace > 0 ? std::min(grace / 4, kDeadlineMarginMs) : kDeadlineMarginMs;
        const char* why = nullptr;
        if (endAt > 0 && unixMs() > endAt + margin)
            why = "its deadline passed and lizard-local did not end it";
        else if (grace > 0 && (now - m_renewedNs.load()) / 1000000 > grace)
            why = "no word from lizard-local within the grace period";
        if (why) {
            std::fprintf(stderr, "lizard-agent: ending the sandbox: %s\n", why);
            std::fflush(stderr);
            ::_exit(0); // PID 1: the kernel ends every process of the sandbox with it
        }
    }
}

} // namespace lizard::agent
