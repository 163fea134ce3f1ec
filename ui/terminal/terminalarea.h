#pragma once
// The Terminal tab: the selected sandbox's terminals (TerminalTabs, made when a sandbox is first
// shown, kept while it exists), a toolbar for them (New terminal, Rename…, Close, Find, zoom,
// Font…), and the font every terminal uses.

#include "client/outcome.h"

#include <QFont>
#include <QHash>
#include <QPointer>
#include <QWidget>

class QAction;
class QLabel;
class QStackedWidget;

namespace lizard::client {
class LizardApi;
}
namespace lizard::models {
class SandboxTableModel;
}

namespace lizard::ui {

class TerminalTabs;

class TerminalArea : public QWidget
{
    Q_OBJECT
public:
    explicit TerminalArea(QWidget* parent = nullptr);

    void setBackend(client::LizardApi* api, models::SandboxTableModel* sandboxes); // not owned
    // The sandbox whose terminals are shown (empty: a placeholder). Its terminals are listed and
    // attached when the tab is visible.
    void showSandbox(const QString& sandboxId);
    // A new terminal in `sandboxId`, starting in `cwd` (Files ▸ Open terminal here).
    void openTerminal(const QString& sandboxId, const QString& cwd);

    TerminalTabs* currentTabs() const;
    TerminalTabs* tabsFor(const QString& sandboxId) const { return m_tabs.value(sandboxId); }
    void setTerminalFont(const QFont& font);
    QFont terminalFont() const { return m_font; }
    QAction* newTerminalAction() const { return m_new; }

signals:
    void errorOccurred(const lizard::client::ApiError& error);
    void message(const QString& text);
    // The user chose a font (Font…): the app keeps it for the next start.
    void fontChosen(const QFont& font);

protected:
    void showEvent(QShowEvent* event) override;

private:
    TerminalTabs* ensureTabs(const QString& sandboxId);
    void chooseFont();
    void zoom(int step);
    void dropVanished();
    void clear();

    client::LizardApi* m_api = nullptr;
    QPointer<models::SandboxTableModel> m_sandboxes;
    QStackedWidget* m_stack;
    QLabel* m_placeholder;
    QHash<QString, TerminalTabs*> m_tabs;
    QString m_current;
    QFont m_font;
    QAction* m_new;
    QList<QAction*> m_paneActions;
};

} // namespace lizard::ui
