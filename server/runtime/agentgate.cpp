#include "runtime/agentgate.h"

#include "runtime/agentlimits.h"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cstdlib>
#include <deque>
#include <map>
#include <mutex>
#include <set>

namespace lizard::runtime {

namespace asio = boost::asio;

namespace {

struct SlotWaiter
{
    asio::any_io_executor ex;
    std::function<void(std::shared_ptr<AgentSlot>)> done;
    std::unique_ptr<asio::steady_timer> timer; // touched on `ex` only
    bool settled = false;                      // guarded by the state's mutex
};

struct Gate
{
    int active[2] = {0, 0};
    std::deque<std::shared_ptr<SlotWaiter>> waiting[2];
    bool idle() const
    {
        return active[0] == 0 && active[1] == 0 && waiting[0].empty() && waiting[1].empty();
    }
};

struct GateState
{
    std::mutex mutex;
    std::map<std::string, Gate> gates;
    std::set<std::string> frozen;
};

// Never destroyed: slots may be released by objects that outlive static destruction.
GateState& gateState()
{
    static auto* s = new GateState;
    return *s;
}

int limitOf(CallKind kind)
{
    return kind == CallKind::Exec ? kMaxExecCallsPerSandbox : kMaxOtherCallsPerSandbox;
}

void grantSlot(const std::shared_ptr<SlotWaiter>& w, const std::string& path, CallKind kind)
{
    auto slot = std::make_shared<AgentSlot>(path, kind);
    asio::post(w->ex, [w, slot] {
        if (w->timer)
            w->timer->cancel();
        auto done = std::move(w->done);
        done(slot);
    });
}

} // namespace

const AgentDeadlines& agentDeadlines()
{
    static const AgentDeadlines d = [] {
        long ms = 10000;
        if (const char* env = std::getenv("LIZARD_AGENT_DEADLINE_MS"); env && *env) {
            char* end = nullptr;
            const long v = std::strtol(env, &end, 10);
            if (end && *end == '\0' && v >= 100 && v <= 600000)
                ms = v;
        }
        return AgentDeadlines{std::chrono::milliseconds(ms)};
    }();
    return d;
}

AgentSlot::~AgentSlot()
{
    GateState& s = gateState();
    const int k = int(m_kind);
    std::shared_ptr<SlotWaiter> next;
    {
        std::lock_guard lock(s.mutex);
        auto it = s.gates.find(m_path);
        if (it == s.gates.end())
            return;
        auto& queue = it->second.waiting[k];
        while (!queue.empty() && !next) {
            auto w = queue.front();
            queue.pop_front();
            if (!w->settled) {
                w->settled = true;
                next = w; // the slot passes on: the count stays
            }
        }
        if (!next && --it->second.active[k] <= 0 && it->second.idle())
            s.gates.erase(it);
    }
    if (next)
        grantSlot(next, m_path, m_kind);
}

void acquireAgentSlot(asio::any_io_executor ex, const std::string& socketPath, CallKind kind,
                      std::function<void(std::shared_ptr<AgentSlot>)> done)
{
    GateState& s = gateState();
    const int k = int(kind);
    auto w = std::make_shared<SlotWaiter>();
    w->ex = ex;
    w->done = std::move(done);
    {
        std::lock_guard lock(s.mutex);
        Gate& g = s.gates[socketPath];
        if (g.active[k] < limitOf(kind) && g.waiting[k].empty()) {
            ++g.active[k];
            w->settled = true;
        } else {
            w->timer = std::make_unique<asio::steady_timer>(ex, agentDeadlines().queueWait());
            g.waiting[k].push_back(w);
        }
    }
    if (w->settled && !w->timer)
        return grantSlot(w, socketPath, kind);
    // Runs on `ex` after a grant was posted there too; the grant cancels the timer first then.
    w->timer->async_wait([w, socketPath, k](const boost::system::error_code& ec) {
        if (ec)
            return;
        GateState& st = gateState();
        {
            std::lock_guard lock(st.mutex);
            if (w->settled)
                return;
            w->settled = true;
            if (auto it = st.gates.find(socketPath); it != st.gates.end()) {
                auto& q = it->second.waiting[k];
                q.erase(std::remove(q.begin(), q.end(), w), q.end());
                if (it->second.idle())
                    st.gates.erase(it);
            }
        }
        auto d = std::move(w->done);
        d(nullptr);
    });
}

Error sandboxBusy(CallKind kind)
{
    const bool exec = kind == CallKind::Exec;
    return Error{ErrorKind::LimitReached, "SANDBOX_BUSY",
                 "the sandbox already runs " + std::to_string(limitOf(kind)) +
                     (exec ? " commands" : " file or process calls") +
                     " started through the API (the most at once); retry when some have finished"};
}

void setAgentFrozen(const std::string& socketPath, bool frozen)
{
    GateState& s = gateState();
    std::lock_guard lock(s.mutex);
    if (frozen)
        s.frozen.insert(socketPath);
    else
        s.frozen.erase(socketPath);
}

bool agentFrozen(const std::string& socketPath)
{
    GateState& s = gateState();
    std::lock_guard lock(s.mutex);
    return s.frozen.count(socketPath) != 0;
}

} // namespace lizard::runtime
