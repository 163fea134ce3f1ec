#pragma once
// The Schedules tab of the selected sandbox: its schedules (when, next run, last status,
// failures in a row, skipped runs, on or off) with Add, Edit, Enable, Disable, Run now and
// Delete; below, the runs of the selected schedule and the output of the selected run (the
// newest is followed until another is picked). Lists refresh every 2 s while the tab is
// visible; the selection survives a refresh.

#include "client/outcome.h"
#include "client/types.h"

#include <QWidget>

class QAction;
class QLabel;
class QPlainTextEdit;
class QTableView;

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models {
class ScheduleListModel;
class ScheduleRunModel;
} // namespace lizard::models

namespace lizard::ui::schedules {

class ScheduleDialog;

class SchedulesPanel : public QWidget
{
    Q_OBJECT
public:
    explicit SchedulesPanel(QWidget* parent = nullptr);

    void setBackend(client::LizardApi* api);    // not owned; null: disconnected
    void showSandbox(const QString& sandboxId); // empty: placeholder

    models::ScheduleListModel* model() const { return m_model; }
    models::ScheduleRunModel* runModel() const { return m_runs; }
    QTableView* view() const { return m_view; }
    QTableView* runsView() const { return m_runsView; }
    QPlainTextEdit* outputView() const { return m_output; }
    QString statusText() const;
    QString selectedScheduleId() const;
    void selectSchedule(const QString& id);

    QAction* addAction() const { return m_add; }
    QAction* editAction() const { return m_edit; }
    QAction* enableAction() const { return m_enable; }
    QAction* disableAction() const { return m_disable; }
    QAction* runNowAction() const { return m_runNow; }
    QAction* deleteAction() const { return m_delete; }

    // The dialogs of Add and Edit, open (non-modal) until the server took their input.
    ScheduleDialog* openAddDialog();
    ScheduleDialog* openEditDialog();

signals:
    void errorOccurred(const lizard::client::ApiError& error);
    void message(const QString& text);

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void restoreSelection();
    void restoreRunSelection();
    void scheduleSelectionChanged();
    void showSelectedRun();
    void updateActions();
    void updateStatus();
    void confirmDelete();

    client::LizardApi* m_api = nullptr;
    QString m_sandboxId;
    models::ScheduleListModel* m_model;
    models::ScheduleRunModel* m_runs;
    QTableView* m_view;
    QTableView* m_runsView;
    QPlainTextEdit* m_output;
    QLabel* m_status;
    QLabel* m_runsTitle;
    QString m_lastError;
    QString m_selectedId;    // kept across refreshes
    QString m_selectedRunId; // empty: follow the newest run
    bool m_restoring = false;
    QAction* m_add;
    QAction* m_edit;
    QAction* m_enable;
    QAction* m_disable;
    QAction* m_runNow;
    QAction* m_delete;
    QAction* m_refresh;
};

} // namespace lizard::ui::schedules
