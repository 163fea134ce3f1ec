#pragma once
// The terminals of one sandbox, one tab each: New terminal (Ctrl+Shift+T, the + button),
// Rename…, Close (ends the program) from the tab's menu, and the terminals the server already
// has (opened by an earlier run of the app, or another client) attached again when the tabs
// first show. A sandbox with none gets a login shell at once. A server without terminals shows
// why, in place of the tabs.

#include "client/outcome.h"

#include <QFont>
#include <QPointer>
#include <QWidget>

class QLabel;
class QStackedWidget;
class QTabWidget;

namespace lizard::client {
class LizardApi;
}
namespace lizard::models {
class TerminalSessions;
}

namespace lizard::ui {

class TerminalPane;

class TerminalTabs : public QWidget
{
    Q_OBJECT
public:
    TerminalTabs(client::LizardApi* api, const QString& sandboxId, QWidget* parent = nullptr);

    QString sandboxId() const { return m_sandboxId; }
    // Lists the server's terminals and attaches to those not shown yet (once; later calls
    // only list again).
    void start();
    bool isStarted() const { return m_started; }
    // A new terminal (the login shell, or `cmd`) in `cwd` (empty: home); its tab becomes current.
    void newTerminal(const QString& cwd = {}, const QString& cmd = {});
    void renameCurrent();
    void closeCurrent();
    void closeTab(int index);

    void setTerminalFont(const QFont& font);
    QTabWidget* tabs() const { return m_tabs; }
    TerminalPane* currentPane() const;
    TerminalPane* paneAt(int index) const;
    models::TerminalSessions* model() const { return m_model; }
    // Shown in place of the tabs when the server has no terminals (or before the first list).
    QLabel* notice() const { return m_notice; }

signals:
    void errorOccurred(const lizard::client::ApiError& error);
    void message(const QString& text);

private:
    void onRefreshed();
    TerminalPane* addPane(const client::TerminalInfo& terminal);
    void updateTitle(TerminalPane* pane);
    void showTabMenu(const QPoint& pos);
    void showSupported();

    client::LizardApi* m_api;
    QString m_sandboxId;
    models::TerminalSessions* m_model;
    QStackedWidget* m_stack;
    QTabWidget* m_tabs;
    QLabel* m_notice;
    QFont m_font;
    bool m_started = false;
    bool m_listedOnce = false;
    int m_creating = 0;
};

} // namespace lizard::ui
