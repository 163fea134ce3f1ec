#pragma once
// The Resources tab's data: one sandbox's metrics over a time range (10m, 1h, 6h, 24h), fetched
// again every poll while someone looks (the server samples every 2 s by default; the whole range
// is fetched, so that buckets closed meanwhile replace the samples they summarise). A server
// without the metrics extension (the cloud) answers 404: `unsupported()` then, and no more polls.

#include "client/metricstypes.h"
#include "client/outcome.h"
#include "client/pendingcall.h"

#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QTimer>

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models {

class SandboxMetricsSource : public QObject
{
    Q_OBJECT
public:
    explicit SandboxMetricsSource(QObject* parent = nullptr);

    void setApi(client::LizardApi* api); // not owned; null: nothing
    void setSandboxId(const QString& sandboxId);
    QString sandboxId() const { return m_sandboxId; }
    void setRange(const QString& range); // 10m, 1h, 6h, 24h
    QString range() const { return m_range; }
    static qint64 rangeMs(const QString& range);
    void setPolling(bool on);
    void setPollInterval(int ms) { m_timer.setInterval(qMax(100, ms)); }
    void refresh(); // unless a fetch is in flight

    bool hasMetrics() const { return m_loaded; }
    bool unsupported() const { return m_unsupported; }
    const client::SandboxMetrics& metrics() const { return m_metrics; }
    // The limits the sandbox is near now (models/metricslimits.h).
    QStringList warnings() const;

signals:
    void updated();
    void failed(const lizard::client::ApiError& error);

private:
    void cancel();

    QPointer<client::LizardApi> m_api;
    QString m_sandboxId;
    QString m_range = QStringLiteral("1h");
    client::SandboxMetrics m_metrics;
    bool m_loaded = false;
    bool m_unsupported = false;
    QPointer<client::PendingCall> m_call;
    int m_serial = 0;
    QTimer m_timer;
};

} // namespace lizard::models
