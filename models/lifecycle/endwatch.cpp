#include "models/lifecycle/endwatch.h"

#include "client/lizardapi.h"

namespace lizard::models {

SandboxEndWatch::SandboxEndWatch(QObject* parent) : QObject(parent)
{
    m_clock.start();
    m_tick.setInterval(1000);
    connect(&m_tick, &QTimer::timeout, this, &SandboxEndWatch::tick);
    m_tick.start();
}

void SandboxEndWatch::setApi(client::LizardApi* api)
{
    for (const QString& id : m_warned.keys())
        emit noLongerEnding(id);
    m_warned.clear();
    m_infos.clear();
    m_readAt.clear();
    m_inFlight.clear();
    m_api = api;
    tick();
}

void SandboxEndWatch::refetch(const QString& sandboxId)
{
    m_readAt.remove(sandboxId);
    if (!m_inFlight.contains(sandboxId))
        fetch(sandboxId);
}

bool SandboxEndWatch::info(const QString& sandboxId, client::SandboxInfo* out) const
{
    const auto it = m_infos.constFind(sandboxId);
    if (it == m_infos.constEnd())
        return false;
    *out = *it;
    return true;
}

void SandboxEndWatch::tick()
{
    QStringList ids = m_source && m_api ? m_source() : QStringList();
    ids.removeAll(QString());
    const QSet<QString> watched(ids.begin(), ids.end());
    for (const QString& id : m_readAt.keys())
        if (!watched.contains(id))
            forget(id);
    const qint64 now = m_clock.elapsed();
    for (const QString& id : watched) {
        const auto read = m_readAt.constFind(id);
        if (!m_inFlight.contains(id) && (read == m_readAt.constEnd() || now - *read >= m_refreshMs))
            fetch(id);
        evaluate(id);
    }
}

void SandboxEndWatch::fetch(const QString& sandboxId)
{
    if (!m_api)
        return;
    m_readAt[sandboxId] = m_clock.elapsed();
    m_inFlight.insert(sandboxId);
    QPointer<client::LizardApi> api = m_api;
    m_api->getSandbox(sandboxId, this, [this, sandboxId, api](auto outcome) {
        m_inFlight.remove(sandboxId);
        if (api != m_api || !m_readAt.contains(sandboxId))
            return; // another connection, or no longer watched
        if (outcome) {
            m_infos.insert(sandboxId, outcome.value());
        } else if (outcome.error().kind == client::ApiError::Kind::NotFound) {
            m_infos.remove(sandboxId); // gone: nothing to warn of
        } else {
            return; // not known now: the last answer stands
        }
        evaluate(sandboxId);
    });
}

void SandboxEndWatch::evaluate(const QString& sandboxId)
{
    const auto it = m_infos.constFind(sandboxId);
    bool ending = false;
    if (it != m_infos.constEnd()) {
        const qint64 left = QDateTime::currentDateTimeUtc().msecsTo(it->endAt);
        ending = it->status == QStringLiteral("running") &&
                 it->onTimeout != QStringLiteral("pause") && it->endAt.isValid() && left > 0 &&
                 left <= kWarnBeforeMs;
    }
    if (ending) {
        if (m_warned.value(sandboxId) != it->endAt) {
            m_warned.insert(sandboxId, it->endAt);
            emit endingSoon(*it);
        }
    } else if (m_warned.remove(sandboxId)) {
        emit noLongerEnding(sandboxId);
    }
}

void SandboxEndWatch::forget(const QString& sandboxId)
{
    m_infos.remove(sandboxId);
    m_readAt.remove(sandboxId);
    if (m_warned.remove(sandboxId))
        emit noLongerEnding(sandboxId);
}

} // namespace lizard::models
