#pragma once
// What every proxy connection shares: the store (sandbox status and agent socket), the
// exposure table, the live connections and the proxy port. Held by shared_ptr so connections may
// outlive the ProxyServer object during shutdown.

#include "proxy/exposuretable.h"
#include "proxy/proxysessions.h"

#include <functional>
#include <memory>
#include <string>

namespace lizard::store {
class Store;
}

namespace lizard::proxy {

// How traffic to exposed ports counts for the sandboxes' lifecycle policies (the sandbox
// manager's IdleWatch, wired by the service; empty: no policies). Every request and every
// step of a body or a tunnel is a use; a sandbox a policy paused is woken first.
struct SandboxUseHooks
{
    // A use; true when the sandbox must be woken before it can answer.
    std::function<bool(const std::string& sandboxId)> touch;
    // Busy while held (a request in flight); null when the sandbox is gone.
    std::function<std::shared_ptr<void>(const std::string& sandboxId)> hold;
    // Resumes a sandbox a policy paused; `then` runs on some thread once done.
    std::function<void(const std::string& sandboxId, const std::string& trigger,
                       std::function<void(bool ok)> then)>
        wake;
};

struct ProxyContext
{
    store::Store& store;
    std::shared_ptr<ExposureTable> exposures;
    unsigned short port = 0;
    std::shared_ptr<ProxySessions> sessions;
    SandboxUseHooks uses;
};

} // namespace lizard::proxy
