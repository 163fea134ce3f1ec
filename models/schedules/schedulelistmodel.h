#pragma once
// The schedules of one sandbox (the Schedules tab), polled while someone looks, and what the tab
// does to them: add, edit, switch on or off, run now, delete. Rows keep their identity by
// schedule id across refreshes (a row's data changes in place), so a view keeps its selection.

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

class ScheduleListModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        WhenColumn,
        CommandColumn,
        NextRunColumn,
        LastStatusColumn,
        FailuresColumn,
        SkippedColumn,
        StateColumn,
        ColumnCount
    };
    enum Role { IdRole = Qt::UserRole + 1, EnabledRole, RunningRole };

    explicit ScheduleListModel(QObject* parent = nullptr);

    void setApi(client::LizardApi* api); // not owned; null: no rows
    void setSandboxId(const QString& sandboxId);
    QString sandboxId() const { return m_sandboxId; }
    void refresh(); // unless a listing is in flight
    void setPolling(bool on);
    void setPollInterval(int ms) { m_timer.setInterval(qMax(100, ms)); }
    bool hasListed() const { return m_listed; }

    // `done` (optional) hears the answer too, so a dialog can stay open and keep its input when
    // the server refuses it; the model's own signals come first.
    void create(const client::ScheduleSpec& spec, QObject* ctx = nullptr,
                client::Done<client::SandboxSchedule> done = {});
    void update(const QString& scheduleId, const client::ScheduleSpec& spec, QObject* ctx = nullptr,
                client::Done<client::SandboxSchedule> done = {});
    void setEnabled(const QString& scheduleId, bool enabled);
    void runNow(const QString& scheduleId);
    void remove(const QString& scheduleId);

    // Shown for a test or a list that did not come from the server.
    void setSchedules(const QList<client::SandboxSchedule>& schedules);

    const client::SandboxSchedule* schedule(const QString& id) const;
    const client::SandboxSchedule* scheduleAt(int row) const;
    int rowOf(const QString& id) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // "every 5m", "cron 0 9 * * 1-5 (Europe/Berlin)".
    static QString whenText(const client::SandboxSchedule& s);

signals:
    void refreshed();
    void refreshFailed(const lizard::client::ApiError& error);
    // An action's answer: the schedule as the server has it now (added, edited, run…).
    void changed(const lizard::client::SandboxSchedule& schedule, const QString& what);
    void removed(const QString& scheduleId);
    void operationFailed(const lizard::client::ApiError& error);

private:
    void cancel();
    // Reports an action's answer; a refusal goes to `done` alone when there is one.
    void applied(const client::Outcome<client::SandboxSchedule>& o, const QString& what,
                 bool quiet = false);
    QVariant display(const client::SandboxSchedule& s, int column) const;

    QPointer<client::LizardApi> m_api;
    QString m_sandboxId;
    QList<client::SandboxSchedule> m_rows;
    bool m_listed = false;
    QPointer<client::PendingCall> m_call;
    int m_serial = 0;
    QTimer m_timer;
};

} // namespace lizard::models
