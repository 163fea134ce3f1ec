#pragma once
// The Logs tab of the selected sandbox: its system log (agent messages, signals, OOM kills,
// lifecycle) live, one row per line with time, level and message; errors stand out. It sticks
// to the newest line unless the user scrolled up. A filter box narrows the rows shown (any
// column, case-insensitive); Clear view drops the rows shown so far (the log itself stays).

#include "client/outcome.h"

#include <QWidget>

class QAction;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models {
class SandboxLogModel;
}

namespace lizard::ui {

class LogsView : public QWidget
{
    Q_OBJECT
public:
    explicit LogsView(QWidget* parent = nullptr);

    void setBackend(client::LizardApi* api);    // not owned; null: disconnected
    void showSandbox(const QString& sandboxId); // empty: none

    models::SandboxLogModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    QLineEdit* filterEdit() const { return m_filter; }
    QAction* clearAction() const { return m_clear; }
    QString statusText() const;
    bool followsTail() const { return m_followTail; }

private:
    void onRangeChanged();
    void onScrolled();

    models::SandboxLogModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    QLineEdit* m_filter;
    QAction* m_clear;
    QLabel* m_status;
    bool m_followTail = true;
};

} // namespace lizard::ui
