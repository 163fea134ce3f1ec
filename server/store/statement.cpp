#include "store/statement.h"

#include <sqlite3.h>

namespace lizard::store {

Statement::Statement(sqlite3* db, std::string_view sql) : m_db(db)
{
    if (sqlite3_prepare_v2(db, sql.data(), int(sql.size()), &m_stmt, nullptr) != SQLITE_OK) {
        m_stmt = nullptr;
        m_failed = true;
    }
}

Statement::~Statement()
{
    sqlite3_finalize(m_stmt);
}

Statement& Statement::bind(int index, std::string_view text)
{
    if (m_stmt != nullptr && sqlite3_bind_text(m_stmt, index, text.data(), int(text.size()),
                                               SQLITE_TRANSIENT) != SQLITE_OK)
        m_failed = true;
    return *this;
}

Statement& Statement::bind(int index, int64_t value)
{
    if (m_stmt != nullptr && sqlite3_bind_int64(m_stmt, index, value) != SQLITE_OK)
        m_failed = true;
    return *this;
}

Statement& Statement::bind(int index, double value)
{
    if (m_stmt != nullptr && sqlite3_bind_double(m_stmt, index, value) != SQLITE_OK)
        m_failed = true;
    return *this;
}

Statement& Statement::bindNull(int index)
{
    if (m_stmt != nullptr && sqlite3_bind_null(m_stmt, index) != SQLITE_OK)
        m_failed = true;
    return *this;
}

bool Statement::step()
{
    if (m_stmt == nullptr || m_failed)
        return false;
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc != SQLITE_DONE)
        m_failed = true;
    return false;
}

bool Statement::run()
{
    while (step()) {
    }
    return !m_failed;
}

std::string Statement::text(int column) const
{
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, column));
    return p == nullptr ? std::string()
                        : std::string(p, size_t(sqlite3_column_bytes(m_stmt, column)));
}

int64_t Statement::integer(int column) const
{
    return sqlite3_column_int64(m_stmt, column);
}
double Statement::real(int column) const
{
    return sqlite3_column_double(m_stmt, column);
}
bool Statement::isNull(int column) const
{
    return sqlite3_column_type(m_stmt, column) == SQLITE_NULL;
}

} // namespace lizard::store
