#include "store/store.h"

#include <nlohmann/json.hpp>
#include <sqlite3.h>

namespace lizard::store {

namespace {

Error storeError(Database& db, const std::string& what)
{
    return Error{500, "STORE", what + ": " + db.lastError()};
}

} // namespace

Result<std::unique_ptr<Store>> Store::open(const std::string& dbPath)
{
    auto db = Database::open(dbPath);
    if (!db)
        return db.error();
    if (Status s = migrate(**db); !s)
        return s.error();
    std::unique_ptr<Store> store(new Store(std::move(*db)));
    if (Status s = store->load(); !s)
        return s.error();
    return store;
}

Status Store::load()
{
    {
        std::lock_guard lock(m_db->mutex());
        Statement q(m_db->handle(), "SELECT id, name, hash, prefix, created_at FROM api_keys");
        while (q.step()) {
            ApiKeyRecord k{q.text(0), q.text(1), q.text(2), q.text(3), q.integer(4)};
            m_keysByHash[k.hash] = k;
        }
        if (q.failed())
            return storeError(*m_db, "cannot read api_keys");
    }
    if (Status s = loadProjects(); !s)
        return s;
    if (Status s = loadSandboxes(); !s)
        return s;
    if (Status s = loadSnapshots(); !s)
        return s;
    return loadVolumes();
}

std::optional<ApiKeyRecord> Store::keyByHash(const std::string& hash) const
{
    std::shared_lock lock(m_mutex);
    const auto it = m_keysByHash.find(hash);
    if (it == m_keysByHash.end())
        return std::nullopt;
    return it->second;
}

std::vector<ApiKeyRecord> Store::keys() const
{
    std::shared_lock lock(m_mutex);
    std::vector<ApiKeyRecord> out;
    for (const auto& [hash, key] : m_keysByHash)
        out.push_back(key);
    return out;
}

Status Store::addKey(const ApiKeyRecord& key)
{
    std::lock_guard writer(m_writeMutex);
    {
        std::lock_guard lock(m_db->mutex());
        Statement q(m_db->handle(),
                    "INSERT INTO api_keys(id, name, hash, prefix, created_at) VALUES (?,?,?,?,?)");
        q.bind(1, key.id)
            .bind(2, key.name)
            .bind(3, key.hash)
            .bind(4, key.prefix)
            .bind(5, key.createdAtMs);
        if (!q.run())
            return storeError(*m_db, "cannot store the API key");
    }
    std::unique_lock lock(m_mutex);
    m_keysByHash[key.hash] = key;
    return okStatus();
}

Status Store::removeKey(const std::string& id)
{
    std::lock_guard writer(m_writeMutex);
    {
        std::lock_guard lock(m_db->mutex());
        Statement q(m_db->handle(), "DELETE FROM api_keys WHERE id = ?");
        q.bind(1, id);
        if (!q.run())
            return storeError(*m_db, "cannot remove the API key");
    }
    std::unique_lock lock(m_mutex);
    std::erase_if(m_keysByHash, [&](const auto& kv) { return kv.second.id == id; });
    return okStatus();
}

} // namespace lizard::store
