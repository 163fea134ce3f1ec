#pragma once
// Wires the Activity tab into the main window: it follows the selected sandbox and the
// connection, opens a context's runs as a notebook bound to that context (so the agent's
// variables are there), and shows a file in the Files tab.

#include <QObject>
#include <QPointer>

namespace lizard::models {
class ActivityPulse;
}
namespace lizard::notebook {
struct NotebookData;
}

namespace lizard::ui {
class Workbench;
namespace notebook {
class NotebookController;
class NotebookPage;
} // namespace notebook
} // namespace lizard::ui

namespace lizard::ui::activity {

class ActivityPanel;

class ActivityController : public QObject
{
    Q_OBJECT
public:
    ActivityController(Workbench* window, notebook::NotebookController* notebooks,
                       QObject* parent = nullptr);

    ActivityPanel* panel() const { return m_panel; }
    models::ActivityPulse* pulse() const { return m_pulse; }

signals:
    void notebookOpened(lizard::ui::notebook::NotebookPage* page);

private:
    void openNotebook(const QString& sandboxId, const lizard::notebook::NotebookData& data,
                      const QString& contextId, const QString& language);
    void updatePulseSandboxes();

    Workbench* m_window;
    QPointer<notebook::NotebookController> m_notebooks;
    ActivityPanel* m_panel;
    models::ActivityPulse* m_pulse;
};

} // namespace lizard::ui::activity
