#pragma once
// The sandboxes of one project as a table. Polls the server (every 2 s by default) and
// applies each answer as minimal row inserts/removes and dataChanged; the "time left"
// column ticks every second without refetching.

#include "client/outcome.h"
#include "client/pendingcall.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QHash>
#include <QPointer>
#include <QTimer>
#include <functional>

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models {

class SandboxTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Role { SandboxIdRole = Qt::UserRole + 1, StatusRole, EndAtRole, ActivityRole };

    explicit SandboxTableModel(client::LizardApi* api, QObject* parent = nullptr);

    void setProjectId(const QString& projectId); // clears the rows and fetches
    QString projectId() const { return m_projectId; }
    void setPollInterval(int ms); // 0 = no polling
    void setTickInterval(int ms);
    void refresh(); // fetch now (or right after the one in flight)
    // The list of the current project arrived and the last fetch succeeded: an empty table then
    // means the project has no sandboxes (not "not loaded yet" or "the server failed").
    bool isLoaded() const { return m_loaded && !m_failing; }

    int rowOf(const QString& sandboxId) const;
    const client::SandboxInfo& sandboxAt(int row) const { return m_rows.at(row); }
    const QList<client::SandboxInfo>& sandboxes() const { return m_rows; }
    // Applies a fresh list as the minimal set of row changes (what a poll does).
    void applySandboxes(const QList<client::SandboxInfo>& fresh);
    // Lifecycle: what the app is doing to a sandbox ("pausing…", "forking ×10…"),
    // shown after its status until cleared with an empty text.
    void setActivity(const QString& sandboxId, const QString& text);
    QString activity(const QString& sandboxId) const { return m_activity.value(sandboxId); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // Clock used for the time columns (tests may pin it).
    void setClock(std::function<QDateTime()> clock) { m_clock = std::move(clock); }

signals:
    void refreshed();
    void refreshFailed(const lizard::client::ApiError& error); // once per failure streak
    void refreshRecovered();
    void loadedChanged(bool loaded); // isLoaded() changed

private:
    void tick();
    void updateRow(int row, const client::SandboxInfo& info);
    void setLoadState(bool loaded, bool failing);

    QPointer<client::LizardApi> m_api;
    QString m_projectId;
    QList<client::SandboxInfo> m_rows;
    QHash<QString, QString> m_activity;
    QPointer<client::PendingCall> m_inFlight;
    quint64 m_generation = 0;
    bool m_failing = false;
    bool m_loaded = false;       // an answer for m_projectId arrived
    bool m_refreshAgain = false; // a refresh was asked for while one was in flight
    QTimer m_pollTimer;
    QTimer m_tickTimer;
    std::function<QDateTime()> m_clock;
};

} // namespace lizard::models
