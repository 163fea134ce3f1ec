#pragma once
// RAII wrapper of one prepared SQLite statement: bind by position (1-based), step, read columns.

#include <cstdint>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace lizard::store {

class Statement
{
public:
    Statement(sqlite3* db, std::string_view sql);
    ~Statement();
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    bool prepared() const { return m_stmt != nullptr; }

    Statement& bind(int index, std::string_view text);
    Statement& bind(int index, int64_t value);
    Statement& bind(int index, double value);
    Statement& bindNull(int index);

    // True while a row is available; false at the end or on error (see failed()).
    bool step();
    // Runs to completion; returns false on error.
    bool run();
    bool failed() const { return m_failed; }

    std::string text(int column) const;
    int64_t integer(int column) const;
    double real(int column) const;
    bool isNull(int column) const;

private:
    sqlite3* m_db = nullptr;
    sqlite3_stmt* m_stmt = nullptr;
    bool m_failed = false;
};

} // namespace lizard::store
