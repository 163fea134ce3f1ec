#pragma once
// How long lizard-local waits for a sandbox's agent, and how many calls it runs at once per
// sandbox. A frozen or wedged agent must cost a bounded wait and a bounded number of sockets,
// never a request that hangs forever (see server/api/DECISIONS.md, "Agent calls").

#include <chrono>

namespace lizard::runtime {

struct AgentDeadlines
{
    // The unit T: connect, each write, and each silence on a reply before a ping is sent.
    std::chrono::milliseconds base;
    std::chrono::milliseconds connect() const { return base; }
    std::chrono::milliseconds write() const { return base; }
    std::chrono::milliseconds reply() const { return base; }
    // A file transfer whose next chunk does not come within this fails (no ping rescues it:
    // an agent that answers pings but sends no bytes is stuck on that file).
    std::chrono::milliseconds progress() const { return base * 3; }
    // How long a call waits for a free slot of its sandbox before SANDBOX_BUSY (LimitReached).
    std::chrono::milliseconds queueWait() const { return base / 2; }
};

// T = 10 s, or LIZARD_AGENT_DEADLINE_MS (100..600000; a test knob) read once.
const AgentDeadlines& agentDeadlines();

// Calls in flight per sandbox. Commands are counted apart from the short calls (files,
// processes, signals, port connects) so that many long-running commands never lock the
// files out. The agent serves at most 64 requests at once (see agentserver.cpp): these two
// plus liveness pings and calls that lizard-local gave up on stay below that.
inline constexpr int kMaxExecCallsPerSandbox = 32;
inline constexpr int kMaxOtherCallsPerSandbox = 16;

} // namespace lizard::runtime
