#include "store/store.h"

#include <nlohmann/json.hpp>
#include <sqlite3.h>

namespace lizard::store {

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
    if (Status s = loadKeys(); !s)
        return s;
    if (Status s = loadProjects(); !s)
        return s;
    if (Status s = loadSandboxes(); !s)
        return s;
    if (Status s = loadSnapshots(); !s)
        return s;
    return loadVolumes();
}

} // namespace lizard::store
