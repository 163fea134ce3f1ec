#pragma once
// The live exposures, by loopback address and by (sandbox, port). Thread-safe: the API
// routes change it, the proxy's connections read it on every request.

#include "proxy/exposure.h"

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lizard::proxy {

class ExposureTable
{
public:
    std::optional<Exposure> byAddress(const std::string& address) const;
    std::optional<Exposure> find(const std::string& sandboxId, int port) const;
    // The token already given to this sandbox's exposures, if any.
    std::optional<std::string> tokenOf(const std::string& sandboxId) const;
    std::vector<Exposure> all() const;
    bool addressTaken(const std::string& address) const;

    void add(const Exposure& e);
    std::optional<Exposure> remove(const std::string& sandboxId, int port);

private:
    mutable std::mutex m_mutex;
    std::map<std::string, Exposure> m_byAddress;
    std::map<std::pair<std::string, int>, std::string> m_addressOf;
};

} // namespace lizard::proxy
