#pragma once
// A notebook open in a document tab: one NotebookDocument bound to a sandbox's code context.
// The header shows the context, the kernel's state and the sandbox's time left; the toolbar runs,
// interrupts, restarts, clears and switches context; the cells below are edited and run with
// JupyterLab's keys (CellListWidget). Saves as .ipynb; autosaves a recovery copy while dirty.

#include "notebook/notebookfile.h"
#include "notebook/notebookkernel.h"
#include "notebook/recoverystore.h"
#include "ui/documentpage.h"

#include <QPointer>

class QAction;
class QToolBar;

namespace lizard::client {
class LizardApi;
}

namespace lizard::models {
class SandboxTableModel;
}

namespace lizard::notebook {
class CodeRunner;
class RecoveryWatcher;
class RunQueue;
class SandboxWatch;
} // namespace lizard::notebook

namespace lizard::ui::notebook {

class CellListWidget;
class ContextSelector;
class HelpPanel;
class NotebookHeader;
class NotebookNavigator;
class VariableExplorer;

class NotebookPage : public DocumentPage
{
    Q_OBJECT
public:
    // Takes ownership of runner and kernel (kernel may be null: no context controls).
    NotebookPage(const QString& sandboxId, lizard::notebook::CodeRunner* runner,
                 lizard::notebook::NotebookKernel* kernel, QWidget* parent = nullptr);
    ~NotebookPage() override;

    QString title() const override;
    QString toolTip() const override;
    QString sandboxId() const override { return m_sandboxId; }
    bool confirmClose() override;

    lizard::notebook::NotebookDocument* document() const { return m_document; }
    lizard::notebook::NotebookFile* file() const { return m_file; }
    lizard::notebook::RunQueue* runQueue() const { return m_queue; }
    lizard::notebook::CodeRunner* runner() const { return m_runner; }
    CellListWidget* cells() const { return m_cells; }
    NotebookHeader* header() const { return m_header; }
    ContextSelector* contextSelector() const { return m_contexts; }
    lizard::notebook::NotebookKernel* kernel() const { return m_kernel; }
    QToolBar* toolBar() const { return m_toolbar; }
    // JupyterLab's contextual help beside the cells; the action (Ctrl+I) shows and hides it.
    HelpPanel* helpPanel() const { return m_help; }
    QAction* helpAction() const { return m_helpAction; }
    // The variable explorer beside the cells; the action (Ctrl+Shift+V, the toolbar's Variables
    // button) shows and hides it.
    VariableExplorer* variableExplorer() const { return m_variables; }
    QAction* variablesAction() const { return m_variablesAction; }
    // Find and replace, the table of contents, export (notebooknavigator.h).
    NotebookNavigator* navigator() const { return m_navigator; }

    // The sandbox table: refreshed when the notebook moves to another sandbox.
    void setSandboxModel(models::SandboxTableModel* model);

    // The sandbox this notebook is bound to (notebookpage_sandbox.cpp): watched on api (null: not
    // connected) for its end, pause and deadline; auto-extended while in use if asked.
    void setApi(client::LizardApi* api);
    void setAutoExtend(bool on);
    lizard::notebook::SandboxWatch* sandboxWatch() const { return m_watch; }
    // Moves the notebook to another sandbox (the kernel was rebound to it by the caller): the
    // header, the metadata and the context list follow; sources and outputs stay.
    void setSandboxId(const QString& sandboxId);
    // Template and size for "Run on a new sandbox": the notebook's metadata, else the sandbox's,
    // else `interpreter` and the server's default size.
    QString sandboxTemplate() const;
    QString sandboxSize() const;
    QAction* attachAction() const { return m_attachAction; }
    QAction* runOnNewAction() const { return m_runOnNewAction; }
    QAction* thenRunAllAction() const { return m_thenRunAll; }
    // Autosave to store while open (RecoveryWatcher); the copy goes when the page closes cleanly.
    void enableRecovery(const lizard::notebook::RecoveryStore& store, int intervalMs = 5000);
    lizard::notebook::RecoveryWatcher* recoveryWatcher() const { return m_recovery; }

    lizard::notebook::MaybeError open(const QString& path);
    lizard::notebook::MaybeError save();
    lizard::notebook::MaybeError saveAs(const QString& path);
    // With dialogs: asks for a path when needed, shows errors. true when saved.
    bool saveInteractive();
    bool saveAsInteractive();

    // Marks this page as a fork's copy of another notebook (shown in its title).
    void setBranchOf(const QString& originalTitle);
    QString branchOf() const { return m_branchOf; }

    void interrupt();
    void restartKernel();
    void clearOutputs();

signals:
    void attachRequested();
    void runOnNewRequested(bool thenRunAll);

private:
    void setUpSandbox(); // notebookpage_sandbox.cpp
    void rememberSandboxInfo();
    void showContextError(const QString& message);
    void buildToolBar();
    void updateKernelState();
    void updateContextLabel();
    void showError(const QString& title, const QString& text);

    QString m_sandboxId;
    QString m_untitled;
    QString m_branchOf;
    lizard::notebook::NotebookDocument* m_document;
    lizard::notebook::NotebookFile* m_file;
    lizard::notebook::CodeRunner* m_runner;
    QPointer<lizard::notebook::NotebookKernel> m_kernel;
    lizard::notebook::RunQueue* m_queue;
    lizard::notebook::RecoveryWatcher* m_recovery = nullptr;
    NotebookHeader* m_header;
    QToolBar* m_toolbar;
    ContextSelector* m_contexts = nullptr;
    CellListWidget* m_cells;
    HelpPanel* m_help;
    QAction* m_helpAction;
    VariableExplorer* m_variables;
    QAction* m_variablesAction;
    QPointer<models::SandboxTableModel> m_sandboxModel;
    lizard::notebook::SandboxWatch* m_watch = nullptr;
    QAction* m_attachAction = nullptr;
    QAction* m_runOnNewAction = nullptr;
    QAction* m_thenRunAll = nullptr;
    NotebookNavigator* m_navigator;
};

} // namespace lizard::ui::notebook
