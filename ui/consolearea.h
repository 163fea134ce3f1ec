#pragma once
// One console per sandbox, created when a sandbox is first selected, so switching between
// sandboxes keeps each one's output and running command. A console goes away with its sandbox.

#include "client/outcome.h"

#include <QHash>
#include <QPointer>
#include <QWidget>

class QLabel;
class QStackedWidget;

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models {
class SandboxTableModel;
}

namespace lizard::ui {

class ConsoleWidget;

class ConsoleArea : public QWidget
{
    Q_OBJECT
public:
    explicit ConsoleArea(QWidget* parent = nullptr);

    void setBackend(client::LizardApi* api, models::SandboxTableModel* sandboxes); // not owned
    void showSandbox(const QString& sandboxId); // empty: placeholder
    ConsoleWidget* currentConsole() const;
    QStringList sandboxIds() const { return m_consoles.keys(); }
    ConsoleWidget* consoleFor(const QString& sandboxId) const
    {
        return m_consoles.value(sandboxId);
    }

signals:
    void errorOccurred(const lizard::client::ApiError& error);
    void message(const QString& text);

private:
    void dropVanished();
    void clear();

    client::LizardApi* m_api = nullptr; // handed to sessions; valid until the next setBackend
    QPointer<models::SandboxTableModel> m_sandboxes;
    QStackedWidget* m_stack;
    QLabel* m_placeholder;
    QLabel* m_title;
    QHash<QString, ConsoleWidget*> m_consoles;
};

} // namespace lizard::ui
