#pragma once
// What every proxy connection shares: the store (sandbox status and agent socket), the
// exposure table, the live connections and the proxy port. Held by shared_ptr so connections may
// outlive the ProxyServer object during shutdown.

#include "proxy/exposuretable.h"
#include "proxy/proxysessions.h"

#include <memory>

namespace lizard::store {
class Store;
}

namespace lizard::proxy {

struct ProxyContext
{
    store::Store& store;
    std::shared_ptr<ExposureTable> exposures;
    unsigned short port = 0;
    std::shared_ptr<ProxySessions> sessions;
};

} // namespace lizard::proxy
