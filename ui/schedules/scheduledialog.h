#pragma once
// Add or edit a schedule: every N (90s, 5m, 1h30m…) or a cron expression in a time zone, the
// command and its timeout. Stays open until the server took it; a refusal shows in the dialog
// and the input stays.

#include "client/types.h"

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QLineEdit;
class QPlainTextEdit;
class QRadioButton;
class QSpinBox;

namespace lizard::models {
class ScheduleListModel;
} // namespace lizard::models

namespace lizard::ui {

class ErrorLabel;

namespace schedules {

class ScheduleDialog : public QDialog
{
    Q_OBJECT
public:
    // `existing` null: Add; else Edit of that schedule.
    ScheduleDialog(models::ScheduleListModel* model, const client::SandboxSchedule* existing,
                   QWidget* parent = nullptr);

    client::ScheduleSpec spec() const;
    QString errorText() const;

    QLineEdit* nameEdit() const { return m_name; }
    QRadioButton* everyButton() const { return m_useEvery; }
    QRadioButton* cronButton() const { return m_useCron; }
    QLineEdit* everyEdit() const { return m_every; }
    QLineEdit* cronEdit() const { return m_cron; }
    QComboBox* timezoneBox() const { return m_timezone; }
    QPlainTextEdit* commandEdit() const { return m_command; }
    QSpinBox* timeoutBox() const { return m_timeout; }

    void accept() override;

signals:
    void saved(const lizard::client::SandboxSchedule& schedule);

private:
    void updateKind();

    models::ScheduleListModel* m_model;
    QString m_scheduleId; // empty: a new schedule
    QLineEdit* m_name;
    QRadioButton* m_useEvery;
    QRadioButton* m_useCron;
    QLineEdit* m_every;
    QLineEdit* m_cron;
    QComboBox* m_timezone;
    QPlainTextEdit* m_command;
    QSpinBox* m_timeout;
    ErrorLabel* m_error;
    QDialogButtonBox* m_buttons;
    bool m_busy = false;
};

} // namespace schedules
} // namespace lizard::ui
