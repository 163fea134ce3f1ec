#pragma once
// The calls that use a sandbox (api/DECISIONS.md, "Lifecycle policies"): each restarts the
// sandbox's idle time, holds it busy while in flight, and first resumes a sandbox that a policy
// paused (idle, or at its deadline). Calls that watch (the process tree and fs.watch events the
// app polls, the desktop's state, logs, activity, info) neither wake a sandbox nor keep it up.

#include "http/beast.h"
#include "http/exchange.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace lizard::sandboxes {
class SandboxManager;
}

namespace lizard::api {

struct SandboxUse
{
    std::string sandboxId;
    std::string what;   // exec, files, processes, terminals, desktop (for the logs)
    bool holds = false; // busy while in flight (not a terminal's WebSocket, which stays open)
};

// The use a request makes of a sandbox, or nullopt when it makes none.
std::optional<SandboxUse> sandboxUse(http::bhttp::verb method, std::string_view path);

class WakeGate
{
public:
    explicit WakeGate(sandboxes::SandboxManager& manager) : m_manager(&manager) {}

    // Runs `route` now, or once the sandbox is resumed (a failed resume is answered instead).
    void operator()(const std::shared_ptr<http::Exchange>& ex, std::function<void()> route) const;

private:
    sandboxes::SandboxManager* m_manager;
};

} // namespace lizard::api
