// Exposed ports of the port proxy. Read once at startup and written on expose/unexpose,
// so they live in SQLite only; the proxy holds the live table.
#include "store/store.h"

namespace lizard::store {

std::vector<ExposureRecord> Store::exposures() const
{
    std::vector<ExposureRecord> out;
    std::lock_guard lock(m_db->mutex());
    Statement q(
        m_db->handle(),
        "SELECT sandbox_id, port, address, token, created_at FROM exposures ORDER BY created_at");
    while (q.step()) {
        ExposureRecord e;
        e.sandboxId = q.text(0);
        e.port = int(q.integer(1));
        e.address = q.text(2);
        e.token = q.text(3);
        e.createdAtMs = q.integer(4);
        out.push_back(std::move(e));
    }
    return out;
}

Status Store::insertExposure(const ExposureRecord& e)
{
    std::lock_guard lock(m_db->mutex());
    Statement q(m_db->handle(),
                "INSERT OR REPLACE INTO exposures(sandbox_id, port, address, token, created_at) "
                "VALUES (?,?,?,?,?)");
    q.bind(1, e.sandboxId)
        .bind(2, int64_t(e.port))
        .bind(3, e.address)
        .bind(4, e.token)
        .bind(5, e.createdAtMs);
    if (!q.run())
        return m_db->failure("cannot store the exposed port");
    return okStatus();
}

Status Store::removeExposure(const std::string& sandboxId, int port)
{
    std::lock_guard lock(m_db->mutex());
    Statement q(m_db->handle(), "DELETE FROM exposures WHERE sandbox_id = ? AND port = ?");
    q.bind(1, sandboxId).bind(2, int64_t(port));
    if (!q.run())
        return m_db->failure("cannot forget the exposed port");
    return okStatus();
}

} // namespace lizard::store
