#pragma once
// The Resources tab of the selected sandbox: CPU, memory, disk, processes, network and disk
// I/O over the last 10 minutes, hour, 6 hours or day (lizard-local's metrics), with the
// sandbox's limits as dashed lines and its lifecycle events (created, paused, resumed,
// snapshot, fork, timeout, OOM kill) marked on the time axis. Fetched every 2 s while the tab
// is visible. A sandbox near a limit (memory or disk ≥ 90 %, processes at the limit) says so
// above the charts.

#include "client/outcome.h"

#include <QList>
#include <QWidget>

class QComboBox;
class QLabel;

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models {
class SandboxMetricsSource;
} // namespace lizard::models

namespace lizard::ui::resources {

class MetricsChart;

class ResourcesPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ResourcesPanel(QWidget* parent = nullptr);

    void setBackend(client::LizardApi* api);    // not owned; null: disconnected
    void showSandbox(const QString& sandboxId); // empty: placeholder

    models::SandboxMetricsSource* source() const { return m_source; }
    QComboBox* rangeBox() const { return m_range; }
    QLabel* warningLabel() const { return m_warning; }
    QString summaryText() const;
    QString statusText() const;
    // cpu, memory, disk, pids, network, diskio
    MetricsChart* chart(const QString& name) const;

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void updateCharts();
    void updateStatus();

    models::SandboxMetricsSource* m_source;
    QString m_sandboxId;
    QComboBox* m_range;
    QLabel* m_warning;
    QLabel* m_summary;
    QLabel* m_status;
    QList<MetricsChart*> m_charts;
    QString m_lastError;
};

} // namespace lizard::ui::resources
