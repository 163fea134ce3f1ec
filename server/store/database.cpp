#include "store/database.h"

#include <fstream>
#include <memory>
#include <set>
#include <sqlite3.h>
#include <sstream>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace lizard::store {

namespace {

// Pids holding a POSIX lock on `path`, its -wal or its -shm (where WAL mode locks), from
// /proc/locks, lines like "1: POSIX ADVISORY WRITE 4242 08:01:1234 0 EOF".
std::set<long> lockHolders(const std::string& path)
{
    std::set<std::string> files;
    for (const std::string& p : {path, path + "-wal", path + "-shm"}) {
        struct stat st
        {
        };
        if (::stat(p.c_str(), &st) == 0) {
            char id[64];
            std::snprintf(id, sizeof id, "%02x:%02x:%lu", major(st.st_dev), minor(st.st_dev),
                          static_cast<unsigned long>(st.st_ino));
            files.insert(id);
        }
    }
    std::set<long> pids;
    std::ifstream locks("/proc/locks");
    for (std::string line; std::getline(locks, line);) {
        std::istringstream in(line);
        std::string n, kind, advisory, mode, pid, file;
        if (in >> n >> kind >> advisory >> mode >> pid >> file && files.count(file) &&
            std::stol(pid) != ::getpid())
            pids.insert(std::stol(pid));
    }
    return pids;
}

std::string processName(long pid)
{
    std::ifstream comm("/proc/" + std::to_string(pid) + "/comm");
    std::string name;
    std::getline(comm, name);
    return name.empty() ? "pid " + std::to_string(pid)
                        : name + " (pid " + std::to_string(pid) + ")";
}

// Why the database cannot be used, and what to do about it, for the user who started us.
Error openError(const std::string& path, sqlite3* db, int rc)
{
    const std::string what = db != nullptr ? sqlite3_errmsg(db) : "out of memory";
    if ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED) {
        std::string who;
        for (long pid : lockHolders(path))
            who += (who.empty() ? "" : ", ") + processName(pid);
        return Error{ErrorKind::Internal, "STORE",
                     "the database " + path + " is locked by another process (" +
                         (who.empty() ? std::string("not found in /proc/locks") : who) +
                         "); end that process (or its transaction) and start lizard-local again. "
                         "Nothing was changed"};
    }
    if ((rc & 0xff) == SQLITE_NOTADB || (rc & 0xff) == SQLITE_CORRUPT)
        return Error{ErrorKind::Internal, "STORE",
                     "the database " + path + " is damaged (" + what +
                         "); it was left as it is. Restore a backup of it, or move it away (for "
                         "example to " +
                         path + ".damaged) to start with an empty one"};
    return Error{ErrorKind::Internal, "STORE", "cannot open the database " + path + ": " + what};
}

} // namespace

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
        return openError(path, db->m_db, rc);
    sqlite3_busy_timeout(db->m_db, 5000);
    std::lock_guard lock(db->m_mutex);
    // The write probe: under WAL another process's transaction does not stop reads, so without
    // it a locked database would only show as failing writes once the API serves.
    for (const char* sql : {"PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL",
                            "PRAGMA foreign_keys=ON", "BEGIN IMMEDIATE", "COMMIT"}) {
        if (int code = sqlite3_exec(db->m_db, sql, nullptr, nullptr, nullptr); code != SQLITE_OK)
            return openError(path, db->m_db, sqlite3_extended_errcode(db->m_db));
    }
    return db;
}

Status Database::exec(const std::string& sql)
{
    char* err = nullptr;
    if (sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
        std::string message = err != nullptr ? err : "unknown error";
        sqlite3_free(err);
        return Error{ErrorKind::Internal, "STORE", "database error: " + message};
    }
    return okStatus();
}

std::string Database::lastError() const
{
    return m_db != nullptr ? sqlite3_errmsg(m_db) : "out of memory";
}

Error Database::failure(const std::string& what) const
{
    return Error{ErrorKind::Internal, "STORE", what + ": " + lastError()};
}

} // namespace lizard::store
