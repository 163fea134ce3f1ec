#include "store/database.h"

#include <memory>
#include <sqlite3.h>
#include <sys/stat.h>

namespace lizard::store {

Database::~Database()
{
    sqlite3_close_v2(m_db);
}

Result<std::unique_ptr<Database>> Database::open(const std::string& path)
{
    std::unique_ptr<Database> db(new Database());
    const int flags =
        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX | SQLITE_OPEN_NOFOLLOW;
    const mode_t old = ::umask(077); // database, -wal and -shm files: owner only
    const int rc = sqlite3_open_v2(path.c_str(), &db->m_db, flags, nullptr);
    ::umask(old);
    if (rc != SQLITE_OK)
        return Error{500, "STORE", "cannot open " + path + ": " + db->lastError()};
    sqlite3_busy_timeout(db->m_db, 5000);
    std::lock_guard lock(db->m_mutex);
    for (const char* pragma :
         {"PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA foreign_keys=ON"}) {
        if (Status s = db->exec(pragma); !s)
            return s.error();
    }
    return db;
}

Status Database::exec(const std::string& sql)
{
    char* err = nullptr;
    if (sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
        std::string message = err != nullptr ? err : "unknown error";
        sqlite3_free(err);
        return Error{500, "STORE", "database error: " + message};
    }
    return okStatus();
}

std::string Database::lastError() const
{
    return m_db != nullptr ? sqlite3_errmsg(m_db) : "out of memory";
}

} // namespace lizard::store
