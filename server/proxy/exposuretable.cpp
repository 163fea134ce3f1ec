#include "proxy/exposuretable.h"

namespace lizard::proxy {

std::optional<Exposure> ExposureTable::byAddress(const std::string& address) const
{
    std::lock_guard lock(m_mutex);
    auto it = m_byAddress.find(address);
    if (it == m_byAddress.end())
        return std::nullopt;
    return it->second;
}

std::optional<Exposure> ExposureTable::find(const std::string& sandboxId, int port) const
{
    std::lock_guard lock(m_mutex);
    auto it = m_addressOf.find({sandboxId, port});
    if (it == m_addressOf.end())
        return std::nullopt;
    return m_byAddress.at(it->second);
}

std::optional<std::string> ExposureTable::tokenOf(const std::string& sandboxId) const
{
    std::lock_guard lock(m_mutex);
    for (const auto& [address, e] : m_byAddress)
        if (e.sandboxId == sandboxId)
            return e.token;
    return std::nullopt;
}

std::vector<Exposure> ExposureTable::all() const
{
    std::lock_guard lock(m_mutex);
    std::vector<Exposure> out;
    out.reserve(m_byAddress.size());
    for (const auto& [address, e] : m_byAddress)
        out.push_back(e);
    return out;
}

bool ExposureTable::addressTaken(const std::string& address) const
{
    std::lock_guard lock(m_mutex);
    return m_byAddress.count(address) != 0;
}

void ExposureTable::add(const Exposure& e)
{
    std::lock_guard lock(m_mutex);
    m_byAddress[e.address] = e;
    m_addressOf[{e.sandboxId, e.port}] = e.address;
}

std::optional<Exposure> ExposureTable::remove(const std::string& sandboxId, int port)
{
    std::lock_guard lock(m_mutex);
    auto it = m_addressOf.find({sandboxId, port});
    if (it == m_addressOf.end())
        return std::nullopt;
    Exposure e = m_byAddress.at(it->second);
    m_byAddress.erase(it->second);
    m_addressOf.erase(it);
    return e;
}

} // namespace lizard::proxy
