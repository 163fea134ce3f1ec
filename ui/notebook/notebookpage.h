#pragma once
// A notebook open in a document tab: the view of one NotebookSession (its document, runs, kernel
// and sandbox). The header shows the context, the kernel's state and the sandbox's time left;
// the toolbar runs, interrupts, restarts, clears and switches context; the cells below are
// edited and run with JupyterLab's keys (CellListWidget); the save dialogs and questions are
// here, the saving and the recovery copy are the session's.

#include "notebook/notebooksession.h"
#include "ui/documentpage.h"

#include <QPointer>

class QAction;
class QSplitter;
class QToolBar;

namespace lizard::client {
class LizardApi;
}

namespace lizard::models {
class SandboxTableModel;
}

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
    QString sandboxId() const override { return m_session->sandboxId(); }
    bool confirmClose() override;

    // What the page shows: the document, its file, runs, kernel and sandbox.
    lizard::notebook::NotebookSession* session() const { return m_session; }
    lizard::notebook::NotebookDocument* document() const { return m_session->document(); }

    CellListWidget* cells() const { return m_cells; }
    NotebookHeader* header() const { return m_header; }
    ContextSelector* contextSelector() const { return m_contexts; }
    QToolBar* toolBar() const { return m_toolbar; }
    // JupyterLab's contextual help beside the cells; the action (Ctrl+I) shows and hides it.
    HelpPanel* helpPanel() const { return m_help; }
    QAction* helpAction() const { return m_helpAction; }
    // The variable explorer beside the cells, made when first asked for; the action
    // (Ctrl+Shift+V, the toolbar's Variables button) shows and hides it.
    VariableExplorer* variableExplorer();
    QAction* variablesAction() const { return m_variablesAction; }
    // Find and replace, the table of contents, export (notebooknavigator.h).
    NotebookNavigator* navigator() const { return m_navigator; }

    // The sandbox table: refreshed when the notebook moves to another sandbox.
    void setSandboxModel(models::SandboxTableModel* model);
    QAction* attachAction() const { return m_attachAction; }
    QAction* runOnNewAction() const { return m_runOnNewAction; }
    QAction* thenRunAllAction() const { return m_thenRunAll; }

    // With dialogs: asks for a path when needed, shows errors. true when saved.
    bool saveInteractive();
    bool saveAsInteractive();

    // Marks this page as a fork's copy of another notebook (shown in its title).
    void setBranchOf(const QString& originalTitle);

signals:
    void attachRequested();
    void runOnNewRequested(bool thenRunAll);

private:
    void setUpSandboxActions(); // notebookpage_sandbox.cpp
    void showSandbox();
    void buildToolBar();
    void updateContextLabel();
    void showError(const QString& title, const QString& text);

    lizard::notebook::NotebookSession* m_session;
    NotebookHeader* m_header;
    QToolBar* m_toolbar;
    ContextSelector* m_contexts = nullptr;
    CellListWidget* m_cells;
    HelpPanel* m_help;
    QAction* m_helpAction;
    VariableExplorer* m_variables = nullptr;
    QSplitter* m_splitter = nullptr;
    QAction* m_variablesAction;
    QPointer<models::SandboxTableModel> m_sandboxModel;
    QAction* m_attachAction = nullptr;
    QAction* m_runOnNewAction = nullptr;
    QAction* m_thenRunAll = nullptr;
    NotebookNavigator* m_navigator;
};

} // namespace lizard::ui::notebook
