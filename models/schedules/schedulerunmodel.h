#pragma once
// The runs of one schedule, newest first (the one in progress with its output so far), polled
// while someone looks. Rows keep their identity by run id across refreshes.

#include "client/outcome.h"
#include "client/pendingcall.h"
#include "client/types.h"

#include <QAbstractTableModel>
#include <QPointer>
#include <QTimer>

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models {

class ScheduleRunModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        StartedColumn,
        StatusColumn,
        ExitCodeColumn,
        DurationColumn,
        SleepColumn,
        ColumnCount
    };
    enum Role { IdRole = Qt::UserRole + 1, OutputRole, ErrorRole };

    static constexpr int kRunsShown = 50;

    explicit ScheduleRunModel(QObject* parent = nullptr);

    void setApi(client::LizardApi* api); // not owned; null: no rows
    void setScheduleId(const QString& scheduleId);
    QString scheduleId() const { return m_scheduleId; }
    void refresh(); // unless a listing is in flight
    void setPolling(bool on);
    void setPollInterval(int ms) { m_timer.setInterval(qMax(100, ms)); }
    bool hasListed() const { return m_listed; }

    void setRuns(const QList<client::ScheduleRun>& runs);
    const client::ScheduleRun* runAt(int row) const;
    int rowOf(const QString& runId) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // "succeeded", "failed (exit 2)", "running…"…
    static QString statusText(const client::ScheduleRun& run);

signals:
    void refreshed();
    void refreshFailed(const lizard::client::ApiError& error);

private:
    void cancel();

    QPointer<client::LizardApi> m_api;
    QString m_scheduleId;
    QList<client::ScheduleRun> m_rows;
    bool m_listed = false;
    QPointer<client::PendingCall> m_call;
    int m_serial = 0;
    QTimer m_timer;
};

} // namespace lizard::models
