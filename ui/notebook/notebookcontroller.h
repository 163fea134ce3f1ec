#pragma once
// Wires notebooks into the main window: "Open notebook" on the selected sandbox, a Notebook menu
// (new, open .ipynb, save, save as), notebooks bound to a sandbox's code interpreter, and the
// offer to restore notebooks whose recovery copies a crash left behind.

#include "notebook/recoverystore.h"

#include <QObject>
#include <QPointer>

class QAction;

namespace lizard::client {
class LizardApi;
}

namespace lizard::notebook {
class NotebookLauncher;
} // namespace lizard::notebook

namespace lizard::ui {
class Workbench;
}

namespace lizard::ui::notebook {

class NotebookPage;
class SandboxSwitcher;
class TypeAhead;

class NotebookController : public QObject
{
    Q_OBJECT
public:
    explicit NotebookController(
        Workbench* window,
        lizard::notebook::RecoveryStore store = lizard::notebook::RecoveryStore(),
        QObject* parent = nullptr);

    QAction* openNotebookAction() const { return m_openNotebook; }
    // New notebook (Ctrl+Shift+N): an interpreter sandbox in the current project that lives
    // newNotebookLifetime() minutes, its Python started, then a notebook on it. A progress strip
    // with Cancel shows meanwhile.
    QAction* newNotebookAction() const { return m_newNotebook; }
    // Also the lifetime of the sandbox "Run on a new sandbox" makes.
    void setNewNotebookLifetime(int minutes);
    int newNotebookLifetime() const { return m_newNotebookMinutes; }
    void newNotebook();
    lizard::notebook::NotebookLauncher* launcher() const; // while one runs
    QList<NotebookPage*> pages() const;
    NotebookPage* currentPage() const;
    // Attach to sandbox… / Run on a new sandbox, and auto-extend (see SandboxSwitcher).
    SandboxSwitcher* sandboxSwitcher() const { return m_switcher; }

    // A new notebook on the sandbox (python's default context), shown in a tab.
    NotebookPage* openNotebook(const QString& sandboxId);
    // Opens an .ipynb bound to the sandbox: the page is made now, the file read and parsed off
    // the UI thread, and the page shown in a later turn, so that no turn of the event loop
    // does it all; then `done` gets the page. On failure nothing is shown and `done` gets null
    // and why. A file already open is shown at once.
    void openFile(const QString& path, const QString& sandboxId,
                  std::function<void(NotebookPage*, const QString& error)> done);
    // With dialogs: the file, then the selected sandbox (or a choice among the listed ones).
    void openFileInteractive();
    // Fork notebook (see NotebookForker): the branch opens in a new tab when the fork is ready.
    void forkNotebook(NotebookPage* page);
    // The recovery copies found, offered one dialog each; restored ones open as unsaved tabs.
    void offerRecovery();
    // Used by openNotebook/openFile: a page whose runs go to the sandbox through api.
    static NotebookPage* createPage(client::LizardApi* api, const QString& sandboxId,
                                    QWidget* parent = nullptr);

signals:
    void notebookForked(lizard::ui::notebook::NotebookPage* original,
                        lizard::ui::notebook::NotebookPage* branch);
    void forkFailed(const QString& message);
    void newNotebookOpened(lizard::ui::notebook::NotebookPage* page);
    void newNotebookFailed(const QString& message);

private:
    NotebookPage* addPage(NotebookPage* page);
    // What a notebook does as it opens, as in JupyterLab: the caret in its first cell (edit
    // mode: what is typed goes there, never to command-mode keys) and its kernel starting, so
    // that the first run answers at once.
    void readyForTyping(NotebookPage* page);
    // A copy of `source` bound to its fork, unsaved, titled as a branch, on the same context.
    NotebookPage* openBranch(NotebookPage* source, const QString& forkId);
    QString chooseSandbox(const QString& why);
    void onBackendChanged();

    Workbench* m_window;
    lizard::notebook::RecoveryStore m_store;
    QAction* m_openNotebook;
    QAction* m_newNotebook;
    int m_newNotebookMinutes = 60;
    QPointer<lizard::notebook::NotebookLauncher> m_launcher;
    QPointer<TypeAhead> m_typeAhead; // the keys typed while New notebook runs
    SandboxSwitcher* m_switcher;
    bool m_connected = false; // the pages have an interpreter of a connection
    bool m_offeredRecovery = false;
};

} // namespace lizard::ui::notebook
