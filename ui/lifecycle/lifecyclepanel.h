#pragma once
// The Lifecycle tab of the selected sandbox: a countdown to its end, who paused it, and its
// policies (what happens at the deadline, pause when unused for N minutes), editable and
// applied with one click. Reads the sandbox table; changes go through SandboxActions.

#include "client/outcome.h"

#include <QPointer>
#include <QTimer>
#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace lizard::models {
class SandboxActions;
class SandboxTableModel;
} // namespace lizard::models

namespace lizard::ui::lifecycle {

class LifecyclePanel : public QWidget
{
    Q_OBJECT
public:
    explicit LifecyclePanel(QWidget* parent = nullptr);

    void setBackend(models::SandboxTableModel* table, models::SandboxActions* actions);
    void showSandbox(const QString& sandboxId); // empty: nothing selected

    QLabel* countdownLabel() const { return m_countdown; }
    QLabel* stateLabel() const { return m_state; }
    QComboBox* onTimeoutBox() const { return m_onTimeout; }
    QSpinBox* idleBox() const { return m_idle; }
    QPushButton* applyButton() const { return m_apply; }

signals:
    void errorOccurred(const lizard::client::ApiError& error);
    void message(const QString& text);

private:
    void showState();   // from the table's row
    void tick();        // the countdown
    void apply();       // sends what the editors say
    void updateApply(); // enabled while the editors differ from the sandbox

    QPointer<models::SandboxTableModel> m_table;
    QPointer<models::SandboxActions> m_actions;
    QString m_sandboxId;
    QString m_shownOnTimeout; // the policy last put in the editors (the server's)
    int m_shownIdle = -1;
    bool m_busy = false;
    QLabel* m_title;
    QLabel* m_state;
    QLabel* m_countdown;
    QComboBox* m_onTimeout;
    QSpinBox* m_idle;
    QPushButton* m_apply;
    QLabel* m_note;
    QWidget* m_form;
    QTimer m_tick;
};

} // namespace lizard::ui::lifecycle
