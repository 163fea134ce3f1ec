#include "models/exposurelist.h"

#include "client/lizardapi.h"

namespace lizard::models {

using client::ApiError;
using client::ExposedPort;
using client::Outcome;

ExposureList::ExposureList(client::LizardApi* api, QObject* parent) : QObject(parent), m_api(api) {}

void ExposureList::expose(const QString& sandboxId, int port, Done done)
{
    if (!m_api) {
        const ApiError e = ApiError::notConnected(QStringLiteral("Expose port %1").arg(port));
        emit failed(e);
        if (done)
            done(e);
        return;
    }
    m_api->exposePort(sandboxId, port, this,
                      [this, sandboxId, port, done = std::move(done)](Outcome<ExposedPort> o) {
                          if (o.ok()) {
                              m_bySandbox[sandboxId].insert(port, o.value());
                              emit changed(sandboxId);
                          } else {
                              emit failed(o.error());
                          }
                          if (done)
                              done(std::move(o));
                      });
}

void ExposureList::ensureExposed(const QString& sandboxId, int port, Done done)
{
    if (const auto known = exposure(sandboxId, port)) {
        if (done)
            done(*known);
        return;
    }
    expose(sandboxId, port, std::move(done));
}

void ExposureList::unexpose(const QString& sandboxId, int port, std::function<void(bool ok)> done)
{
    if (!m_api) {
        emit failed(ApiError::notConnected(QStringLiteral("Unexpose port %1").arg(port)));
        if (done)
            done(false);
        return;
    }
    m_api->unexposePort(sandboxId, port, this,
                        [this, sandboxId, port, done = std::move(done)](Outcome<client::Unit> o) {
                            const bool gone = o.ok() || o.error().kind == ApiError::Kind::NotFound;
                            if (gone) {
                                auto it = m_bySandbox.find(sandboxId);
                                if (it != m_bySandbox.end() && it->remove(port) > 0)
                                    emit changed(sandboxId);
                            } else {
                                emit failed(o.error());
                            }
                            if (done)
                                done(gone);
                        });
}

std::optional<ExposedPort> ExposureList::exposure(const QString& sandboxId, int port) const
{
    const auto it = m_bySandbox.constFind(sandboxId);
    if (it == m_bySandbox.constEnd() || !it->contains(port))
        return std::nullopt;
    return it->value(port);
}

QList<ExposedPort> ExposureList::exposures(const QString& sandboxId) const
{
    return m_bySandbox.value(sandboxId).values();
}

} // namespace lizard::models
