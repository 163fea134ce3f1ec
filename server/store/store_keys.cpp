// API keys: only their SHA-256 is stored. Every request looks its key up here, so the lookup
// takes a shared lock and a map search, and its last use is an atomic that reaches SQLite at
// most once a minute per key (and when the store closes).
#include "store/store.h"

#include <algorithm>

namespace lizard::store {

namespace {

constexpr int64_t kLastUsePersistMs = 60 * 1000;

ApiKeyRecord snapshotOf(const KeyEntry& entry)
{
    ApiKeyRecord rec = entry.record;
    rec.lastUsedMs = entry.lastUsedMs.load(std::memory_order_relaxed);
    return rec;
}

} // namespace

Store::~Store()
{
    // Last uses newer than what SQLite has (less than a minute old) would be lost otherwise.
    std::vector<KeyPtr> keys;
    {
        std::shared_lock lock(m_mutex);
        for (const auto& [hash, key] : m_keysByHash)
            keys.push_back(key);
    }
    for (const KeyPtr& key : keys) {
        const int64_t used = key->lastUsedMs.load();
        if (used > key->persistedMs.load())
            persistLastUse(*key, used);
    }
}

Status Store::loadKeys()
{
    std::lock_guard lock(m_db->mutex());
    Statement q(m_db->handle(), "SELECT id, name, hash, prefix, created_at, read_only, bootstrap, "
                                "last_used_at FROM api_keys");
    while (q.step()) {
        auto entry = std::make_shared<KeyEntry>();
        entry->record =
            ApiKeyRecord{q.text(0),    q.text(1),         q.text(2),         q.text(3),
                         q.integer(4), q.integer(5) != 0, q.integer(6) != 0, q.integer(7)};
        entry->lastUsedMs = entry->record.lastUsedMs;
        entry->persistedMs = entry->record.lastUsedMs;
        m_keysByHash[entry->record.hash] = std::move(entry);
    }
    if (q.failed())
        return m_db->failure("cannot read api_keys");
    return okStatus();
}

std::optional<ApiKeyRecord> Store::keyByHash(const std::string& hash) const
{
    std::shared_lock lock(m_mutex);
    const auto it = m_keysByHash.find(hash);
    if (it == m_keysByHash.end())
        return std::nullopt;
    return snapshotOf(*it->second);
}

std::optional<ApiKeyRecord> Store::keyById(const std::string& id) const
{
    std::shared_lock lock(m_mutex);
    for (const auto& [hash, key] : m_keysByHash) {
        if (key->record.id == id)
            return snapshotOf(*key);
    }
    return std::nullopt;
}

std::vector<ApiKeyRecord> Store::keys() const
{
    std::vector<ApiKeyRecord> out;
    {
        std::shared_lock lock(m_mutex);
        for (const auto& [hash, key] : m_keysByHash)
            out.push_back(snapshotOf(*key));
    }
    std::sort(out.begin(), out.end(), [](const ApiKeyRecord& a, const ApiKeyRecord& b) {
        return a.createdAtMs != b.createdAtMs ? a.createdAtMs < b.createdAtMs : a.id < b.id;
    });
    return out;
}

KeyPtr Store::authenticate(const std::string& hash, int64_t nowMs)
{
    KeyPtr key;
    {
        std::shared_lock lock(m_mutex);
        const auto it = m_keysByHash.find(hash);
        if (it == m_keysByHash.end())
            return nullptr;
        key = it->second;
    }
    key->lastUsedMs.store(nowMs, std::memory_order_relaxed);
    int64_t persisted = key->persistedMs.load(std::memory_order_relaxed);
    // One request a minute per key writes; the others only see that it is recent enough.
    if (nowMs - persisted >= kLastUsePersistMs &&
        key->persistedMs.compare_exchange_strong(persisted, nowMs))
        persistLastUse(*key, nowMs);
    return key;
}

void Store::persistLastUse(const KeyEntry& key, int64_t ms)
{
    std::lock_guard lock(m_db->mutex());
    Statement q(m_db->handle(), "UPDATE api_keys SET last_used_at = ? WHERE id = ?");
    q.bind(1, ms).bind(2, key.record.id);
    q.run(); // a lost last use is only a less precise display; the in-memory value is right
}

Status Store::addKey(const ApiKeyRecord& key)
{
    std::lock_guard writer(m_writeMutex);
    {
        std::lock_guard lock(m_db->mutex());
        Statement q(m_db->handle(),
                    "INSERT INTO api_keys(id, name, hash, prefix, created_at, read_only, "
                    "bootstrap, last_used_at) VALUES (?,?,?,?,?,?,?,?)");
        q.bind(1, key.id)
            .bind(2, key.name)
            .bind(3, key.hash)
            .bind(4, key.prefix)
            .bind(5, key.createdAtMs)
            .bind(6, int64_t(key.readOnly ? 1 : 0))
            .bind(7, int64_t(key.bootstrap ? 1 : 0))
            .bind(8, key.lastUsedMs);
        if (!q.run())
            return m_db->failure("cannot store the API key");
    }
    auto entry = std::make_shared<KeyEntry>();
    entry->record = key;
    entry->lastUsedMs = key.lastUsedMs;
    entry->persistedMs = key.lastUsedMs;
    std::unique_lock lock(m_mutex);
    m_keysByHash[key.hash] = std::move(entry);
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
            return m_db->failure("cannot remove the API key");
    }
    std::unique_lock lock(m_mutex);
    std::erase_if(m_keysByHash, [&](const auto& kv) { return kv.second->record.id == id; });
    return okStatus();
}

} // namespace lizard::store
