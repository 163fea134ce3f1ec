#pragma once
// One SQLite connection (WAL) with a mutex: every statement runs under lock().

#include "common/result.h"
#include "store/statement.h"

#include <memory>
#include <mutex>
#include <string>

struct sqlite3;

namespace lizard::store {

class Database
{
public:
    ~Database();
    static Result<std::unique_ptr<Database>> open(const std::string& path);

    std::mutex& mutex() { return m_mutex; }
    sqlite3* handle() { return m_db; }
    Status exec(const std::string& sql); // caller holds mutex()
    std::string lastError() const;
    // A statement that failed: STORE "<what>: <SQLite's message>". Caller holds mutex().
    Error failure(const std::string& what) const;

private:
    Database() = default;
    sqlite3* m_db = nullptr;
    std::mutex m_mutex;
};

// Applies the schema migrations in order; the schema_version table records the last one.
Status migrate(Database& db);

} // namespace lizard::store
