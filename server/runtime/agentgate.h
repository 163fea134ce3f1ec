#pragma once
// Per-sandbox call slots (kMaxExecCallsPerSandbox / kMaxOtherCallsPerSandbox) and the list of
// sandboxes that lizard-local froze on purpose (pause, snapshot copy), whose silence is no
// sign of a wedged agent. Thread-safe; callbacks run on the executor passed in.

#include "common/result.h"

#include <boost/asio/any_io_executor.hpp>
#include <functional>
#include <memory>
#include <string>

namespace lizard::runtime {

enum class CallKind { Exec, Other };

// Held for the lifetime of one agent connection; the destructor frees the slot (and hands
// it to the oldest waiting call).
class AgentSlot
{
public:
    AgentSlot(std::string socketPath, CallKind kind) : m_path(std::move(socketPath)), m_kind(kind)
    {
    }
    ~AgentSlot();
    AgentSlot(const AgentSlot&) = delete;
    AgentSlot& operator=(const AgentSlot&) = delete;

private:
    std::string m_path;
    CallKind m_kind;
};

// `done` gets a slot, or nullptr when none became free within agentDeadlines().queueWait().
void acquireAgentSlot(boost::asio::any_io_executor ex, const std::string& socketPath, CallKind kind,
                      std::function<void(std::shared_ptr<AgentSlot>)> done);

// SANDBOX_BUSY (LimitReached).
Error sandboxBusy(CallKind kind);

void setAgentFrozen(const std::string& socketPath, bool frozen);
bool agentFrozen(const std::string& socketPath);

} // namespace lizard::runtime
