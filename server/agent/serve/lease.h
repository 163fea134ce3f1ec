#pragma once
// PID 1 ends its own sandbox when lizard-local is gone for good: at the sandbox's deadline
// (plus a margin of 30 s, or a quarter of a shorter grace period, so that the server, when it
// is there, ends it first and cleans up), and
// after a grace period without any word from the server. lizard-local renews the lease with
// every liveness ping; a restart within the grace period adopts the sandbox as before.
//
// A frozen sandbox (paused, or the host suspended) does not tick; a long gap between ticks
// restarts the grace period, so a sandbox is never ended because it was frozen.

#include <atomic>
#include <cstdint>

namespace lizard::agent {

class Lease
{
public:
    // endAtMs: unix ms of the deadline, 0 for none. graceMs: how long without a renewal
    // until the sandbox ends, 0 for never.
    void renew(std::int64_t endAtMs, std::int64_t graceMs);
    // The watchdog thread. False if no thread could be started.
    bool start();

private:
    void watch();

    std::atomic<std::int64_t> m_endAtMs{0};
    std::atomic<std::int64_t> m_graceMs{0};
    std::atomic<std::int64_t> m_renewedNs{0}; // steady clock
};

} // namespace lizard::agent
