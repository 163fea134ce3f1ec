#pragma once
// The sandboxes of one project as a table. Polls the server like the other project tables
// (PolledTableModel: every 2 s by default, each answer applied as minimal row inserts/removes
// and dataChanged); the status (its badge: ending soon), "started" and "time left" columns tick
// every second without refetching. Each poll also asks lizard-local for the project's metrics
// (sandboxtablemodel_usage.cpp): the CPU and Memory columns, and the limits a sandbox is near; a
// server without them is not asked again.

#include "client/metricstypes.h"
#include "client/outcome.h"
#include "models/polledtablemodel.h"

#include <QDateTime>
#include <QHash>
#include <QPointer>
#include <QTimer>
#include <functional>

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models {

class SandboxTableModel : public PolledTableModel
{
    Q_OBJECT
public:
    // BadgeRole: the status badge's kind (sandboxBadge: running, ending, paused, other).
    // UsageRole: the Cpu or Memory cell's bar, used / limit (of one core where the CPU is not
    // limited), -1 when unknown. NearLimitRole: the limits the sandbox is near (QStringList).
    enum Role {
        SandboxIdRole = Qt::UserRole + 1,
        StatusRole,
        EndAtRole,
        ActivityRole,
        BadgeRole,
        UsageRole,
        NearLimitRole
    };

    explicit SandboxTableModel(client::LizardApi* api, QObject* parent = nullptr);

    void setTickInterval(int ms);
    // The list of the current project arrived and the last fetch succeeded: an empty table then
    // means the project has no sandboxes (not "not loaded yet" or "the server failed").
    bool isLoaded() const { return m_loaded && !failing(); }

    int rowOf(const QString& sandboxId) const;
    const client::SandboxInfo& sandboxAt(int row) const { return m_rows.at(row); }
    const QList<client::SandboxInfo>& sandboxes() const { return m_rows; }
    // Applies a fresh list as the minimal set of row changes (what a poll does).
    void applySandboxes(const QList<client::SandboxInfo>& fresh);
    // Lifecycle: what the app is doing to a sandbox ("pausing…", "forking ×10…"),
    // shown after its status until cleared with an empty text.
    void setActivity(const QString& sandboxId, const QString& text);
    QString activity(const QString& sandboxId) const { return m_activity.value(sandboxId); }
    // The latest metrics of the project's running sandboxes (what a poll applies).
    void applyUsage(const client::ProjectMetrics& metrics);
    const client::ProjectSandboxMetrics* usage(const QString& sandboxId) const;
    bool usageUnsupported() const { return m_usageUnsupported; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // Clock used for the time columns (tests may pin it).
    void setClock(std::function<QDateTime()> clock) { m_clock = std::move(clock); }

signals:
    void loadedChanged(bool loaded); // isLoaded() changed

protected:
    client::PendingCall* startFetch(const QString& projectId, quint64 generation) override;
    void clearRows() override;

private:
    void tick();
    void fetchUsage(const QString& projectId);
    QVariant usageData(const client::SandboxInfo& info, int column, int role) const;
    void setLoaded(bool loaded); // emits loadedChanged when isLoaded() changes

    QList<client::SandboxInfo> m_rows;
    QHash<QString, QString> m_activity;
    QHash<QString, client::ProjectSandboxMetrics> m_usage;
    QPointer<client::PendingCall> m_usageCall;
    bool m_usageUnsupported = false;
    bool m_loaded = false;    // an answer for the project arrived
    bool m_wasLoaded = false; // isLoaded() as last reported
    QTimer m_tickTimer;
    std::function<QDateTime()> m_clock;
};

} // namespace lizard::models
