#pragma once
// Sandbox ▸ Clean up…: what is left running or paused across all projects, oldest first, with
// what each holds, and Kill for every selected one (asked once).

#include "client/outcome.h"

#include <QDialog>

class QLabel;
class QPushButton;
class QTableView;

namespace lizard::models {
class CleanupListModel;
}

namespace lizard::ui::lifecycle {

class CleanupDialog : public QDialog
{
    Q_OBJECT
public:
    CleanupDialog(models::CleanupListModel* model, QWidget* parent = nullptr); // not owned

    QTableView* view() const { return m_view; }
    QPushButton* killButton() const { return m_kill; }
    QPushButton* refreshButton() const { return m_refresh; }
    QString summaryText() const;
    QStringList selectedSandboxIds() const; // in the table's order
    // Kill without asking (the button asks first).
    void killSelected();

signals:
    void errorOccurred(const lizard::client::ApiError& error);

private:
    void confirmKill();
    void updateButtons();

    models::CleanupListModel* m_model;
    QTableView* m_view;
    QLabel* m_summary;
    QLabel* m_result;
    QPushButton* m_kill;
    QPushButton* m_refresh;
};

} // namespace lizard::ui::lifecycle
