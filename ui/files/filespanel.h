#pragma once
// The Files tab of the selected sandbox: a path bar (/home/user, /, /workspace or a typed
// path), the lazy file tree, and actions on the selection: open (text in an editor tab, images
// in an image tab), upload (buttons, or drop files and folders from the desktop), download
// (a folder arrives as a folder), new folder, rename, move, delete and copy path. Uploads and
// downloads are listed with progress and cancel below the tree.

#include "client/outcome.h"

#include <QPointer>
#include <QWidget>

class QAction;
class QComboBox;
class QLabel;
class QMenu;
class QStackedLayout;
class QTreeView;

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models::files {
class FileChangeFeed;
class FileOperations;
class SandboxFileModel;
class TransferJob;
class TransferJobsModel;
} // namespace lizard::models::files

namespace lizard::ui {
class DocumentTabs;
}

namespace lizard::ui::files {

class FileIconProxy;
class TransfersView;

class FilesPanel : public QWidget
{
    Q_OBJECT
public:
    explicit FilesPanel(QWidget* parent = nullptr);
    ~FilesPanel() override;

    // api and documents are not owned; nullptr api: disconnected.
    void setBackend(client::LizardApi* api, DocumentTabs* documents);
    void showSandbox(const QString& sandboxId); // empty: nothing to show
    QString sandboxId() const { return m_sandboxId; }

    void setRootPath(const QString& path);
    QString rootPath() const;

    // The sandbox folder actions apply to: the selected folder, the selected file's folder,
    // or the shown root.
    QString currentDir() const;
    QString selectedPath() const;
    bool selectPath(const QString& path); // only if listed

    // What a drop does: upload local files and folders into remoteDir (asks before replacing).
    void uploadPaths(const QStringList& localPaths, const QString& remoteDir);
    void download(const QString& remotePath, bool isFolder, const QString& localTarget);
    // Opens a sandbox file in a tab (editor or image view); an open one is shown again.
    void openPath(const QString& path);

    QTreeView* view() const { return m_view; }
    models::files::SandboxFileModel* model() const { return m_model; }
    // True while changes in the sandbox show by themselves (the server has fs.watch).
    bool followsChanges() const;
    models::files::FileOperations* operations() const { return m_ops; }
    models::files::TransferJobsModel* transfers() const { return m_transfers; }
    QAction* refreshAction() const { return m_refresh; }
    QAction* deleteAction() const { return m_delete; }
    QAction* openTerminalAction() const { return m_openTerminal; }

signals:
    void errorOccurred(const lizard::client::ApiError& error);
    void problem(const QString& text);
    void message(const QString& text);
    // Open terminal here: a terminal in the selected folder (or the selected file's).
    void openTerminalRequested(const QString& sandboxId, const QString& dir);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void buildActions();
    void buildModel();
    void updateActions();
    void showContextMenu(const QPoint& pos);
    void onActivated(const QModelIndex& index);
    void onJobFinished(models::files::TransferJob* job);
    QString dropTarget(const QPoint& viewportPos) const;
    client::FileEntry selectedEntry() const;
    bool hasSelection() const;
    bool selectedIsFolder() const; // a folder, or a symlink that leads to one

    // filespanel_actions.cpp: the actions' dialogs
    void openSelected();
    void uploadFilesDialog();
    void uploadFolderDialog();
    void downloadSelected();
    void newFolder();
    void renameSelected();
    void moveSelected();
    void deleteSelected();
    void copyPath();
    void openWithContent(const client::FileEntry& entry, const QByteArray& content);

    client::LizardApi* m_api = nullptr; // handed to the models; valid until the next setBackend
    QPointer<DocumentTabs> m_documents;
    QString m_sandboxId;
    QComboBox* m_pathBox;
    QTreeView* m_view;
    QLabel* m_placeholder;
    QStackedLayout* m_stack = nullptr;
    models::files::SandboxFileModel* m_model = nullptr;
    FileIconProxy* m_proxy = nullptr;
    models::files::FileOperations* m_ops = nullptr;
    models::files::FileChangeFeed* m_feed = nullptr; // live updates where fs.watch exists
    models::files::TransferJobsModel* m_transfers;
    TransfersView* m_transfersView;
    QAction* m_up = nullptr;
    QAction* m_refresh = nullptr;
    QAction* m_open = nullptr;
    QAction* m_uploadFiles = nullptr;
    QAction* m_uploadFolder = nullptr;
    QAction* m_download = nullptr;
    QAction* m_newFolder = nullptr;
    QAction* m_rename = nullptr;
    QAction* m_move = nullptr;
    QAction* m_delete = nullptr;
    QAction* m_copyPath = nullptr;
    QAction* m_openTerminal = nullptr;
};

} // namespace lizard::ui::files
