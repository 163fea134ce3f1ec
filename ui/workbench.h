#pragma once
// What a feature's controller may ask of the main window (the Notebook and Activity features),
// in the window's own verbs, in the manner of Kate's KTextEditor::MainWindow: add a menu, a tool
// tab or a sandbox action, open and find documents, tell the user something, and follow the
// connection and the selected sandbox. A controller sees none of the window's other panels, and
// it reaches the server only through the models of the connection and the sessions it hands
// api() to (client/lizardapi.h refuses ui/ files; see cmake/LayerRules.cmake).

#include "client/types.h"

#include <QDateTime>
#include <QList>
#include <QObject>

class QAction;
class QMenu;
class QStyledItemDelegate;
class QWidget;

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models {
class SandboxActions;
class SandboxTableModel;
} // namespace lizard::models

namespace lizard::ui {

class DocumentPage;
class MainWindow;

class Workbench : public QObject
{
    Q_OBJECT
public:
    explicit Workbench(MainWindow* window);

    // The parent of a controller's dialogs.
    QWidget* window() const;

    // The connection: null while there is none. api() is only handed on to models and sessions.
    client::LizardApi* api() const;
    models::SandboxTableModel* sandboxes() const;
    models::SandboxActions* sandboxActions() const;

    // The selected sandbox of the sandbox list ("" when none).
    QString currentSandboxId() const;
    // The sandboxes whose console is open (one per sandbox selected since the connection).
    QStringList consoleSandboxIds() const;
    // A sandbox just made: in the list at once (before its next poll), and selected.
    void showNewSandbox(const client::SandboxInfo& info);
    // Draws the sandbox list's id column (a badge before the id); the list owns the delegate.
    void setSandboxIdDelegate(QStyledItemDelegate* delegate);
    // Repaints the sandbox list (its delegate's data changed).
    void updateSandboxList();

    // Menus go before Help; sandbox actions in the sandbox list's toolbar and context menu.
    void addMenu(QMenu* menu);
    void addSandboxAction(QAction* action);
    // An entry of the Sandbox menu (after its own), for actions on no one sandbox.
    void addSandboxMenuAction(QAction* action);
    void setNewNotebookAction(QAction* action); // the sandbox list's empty view offers it too
    void addToolTab(QWidget* panel, const QString& title);
    // The Files tab, showing `path` of `sandboxId` (its folder, the file selected once listed).
    void showFile(const QString& sandboxId, const QString& path);
    // The Changes tab, showing only what `sandboxId` changed between `from` and `to` (what a
    // command did, by the files' modification times), with `what` said above the list.
    void showChangesBetween(const QString& sandboxId, const QDateTime& from, const QDateTime& to,
                            const QString& what);

    // Documents: the central tabs after the home view.
    void openDocument(DocumentPage* page);
    void showDocument(DocumentPage* page);
    QList<DocumentPage*> documents() const;
    DocumentPage* currentDocument() const;

    void showProblem(const QString& text);
    void showInfo(const QString& text);
    void showError(const client::ApiError& error);
    // A strip for a task in progress (e.g. ProgressStrip), shown until deleted.
    void addStrip(QWidget* strip);

signals:
    // api() and sandboxes() changed (a new connection, or none).
    void backendChanged();
    void currentSandboxChanged(const QString& sandboxId);

private:
    MainWindow* m_window;
};

} // namespace lizard::ui
