#include "models/sandboxmetrics.h"

#include "client/lizardapi.h"
#include "models/metricslimits.h"

namespace lizard::models {

SandboxMetricsSource::SandboxMetricsSource(QObject* parent) : QObject(parent)
{
    m_timer.setInterval(2000);
    connect(&m_timer, &QTimer::timeout, this, &SandboxMetricsSource::refresh);
}

void SandboxMetricsSource::setApi(client::LizardApi* api)
{
    cancel();
    m_api = api;
    m_unsupported = false;
    setSandboxId(QString());
}

void SandboxMetricsSource::setSandboxId(const QString& sandboxId)
{
    if (sandboxId == m_sandboxId && m_loaded)
        return refresh();
    cancel();
    m_sandboxId = sandboxId;
    m_metrics = {};
    m_loaded = false;
    emit updated();
    refresh();
}

void SandboxMetricsSource::setRange(const QString& range)
{
    if (range == m_range || rangeMs(range) <= 0)
        return;
    cancel();
    m_range = range;
    refresh();
}

qint64 SandboxMetricsSource::rangeMs(const QString& range)
{
    if (range == QLatin1String("10m"))
        return 10 * 60 * 1000;
    if (range == QLatin1String("1h"))
        return 3600 * 1000;
    if (range == QLatin1String("6h"))
        return 6 * 3600 * 1000;
    if (range == QLatin1String("24h"))
        return 24 * 3600 * 1000;
    return 0;
}

void SandboxMetricsSource::setPolling(bool on)
{
    if (on && !m_timer.isActive())
        m_timer.start();
    else if (!on)
        m_timer.stop();
}

void SandboxMetricsSource::cancel()
{
    ++m_serial;
    if (m_call)
        m_call->cancel();
    m_call = nullptr;
}

void SandboxMetricsSource::refresh()
{
    if (!m_api || m_sandboxId.isEmpty() || m_call || m_unsupported)
        return;
    const int serial = ++m_serial;
    m_call = m_api->sandboxMetrics(
        m_sandboxId, m_range, this, [this, serial](client::Outcome<client::SandboxMetrics> o) {
            if (serial != m_serial)
                return; // another sandbox, range or connection meanwhile
            m_call = nullptr;
            if (!o.ok()) {
                const client::ApiError& e = o.error();
                if (e.kind == client::ApiError::Kind::Cancelled)
                    return;
                // A 404 without the API's NOT_FOUND code: the route itself is missing.
                if (e.httpStatus == 404 && e.code != QLatin1String("NOT_FOUND"))
                    m_unsupported = true;
                emit failed(e);
                return;
            }
            m_metrics = o.value();
            m_loaded = true;
            emit updated();
        });
}

QStringList SandboxMetricsSource::warnings() const
{
    return m_loaded ? nearLimitWarnings(m_metrics.latest, m_metrics.limits) : QStringList();
}

} // namespace lizard::models
