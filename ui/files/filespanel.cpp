#include "ui/files/filespanel.h"

#include "models/files/downloadjob.h"
#include "models/files/filechangefeed.h"
#include "models/files/fileoperations.h"
#include "models/files/remotepath.h"
#include "models/files/sandboxfilemodel.h"
#include "models/files/transferjobsmodel.h"
#include "models/files/uploadjob.h"
#include "ui/documenttabs.h"
#include "ui/files/fileiconproxy.h"
#include "ui/files/transfersview.h"
#include "ui/theme/icontheme.h"

#include <QAction>
#include <QComboBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QFontMetrics>
#include <QHash>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QStackedLayout>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

namespace lizard::ui::files {

using models::files::RemotePath;
using models::files::SandboxFileModel;
using models::files::TransferJob;

namespace {
const QString kHome = QStringLiteral("/home/user");

QStringList localPathsOf(const QMimeData* mime)
{
    QStringList paths;
    if (mime == nullptr || !mime->hasUrls())
        return paths;
    for (const QUrl& url : mime->urls())
        if (url.isLocalFile() && QFileInfo::exists(url.toLocalFile()))
            paths.append(url.toLocalFile());
    return paths;
}

// Each action's icon (ui/theme/icontheme.h), by the action's name.
QString iconOf(const QString& action)
{
    static const QHash<QString, QString> icons{
        {QStringLiteral("filesUp"), QStringLiteral("go-up")},
        {QStringLiteral("filesRefresh"), QStringLiteral("view-refresh")},
        {QStringLiteral("filesOpen"), QStringLiteral("document-open")},
        {QStringLiteral("filesUpload"), QStringLiteral("lizard-upload")},
        {QStringLiteral("filesUploadFolder"), QStringLiteral("lizard-upload-folder")},
        {QStringLiteral("filesDownload"), QStringLiteral("lizard-download")},
        {QStringLiteral("filesNewFolder"), QStringLiteral("folder-new")},
        {QStringLiteral("filesRename"), QStringLiteral("edit-rename")},
        {QStringLiteral("filesMove"), QStringLiteral("lizard-move")},
        {QStringLiteral("filesDelete"), QStringLiteral("edit-delete")},
        {QStringLiteral("filesCopyPath"), QStringLiteral("edit-copy")},
        {QStringLiteral("filesOpenTerminal"), QStringLiteral("utilities-terminal")}};
    return icons.value(action);
}
} // namespace

FilesPanel::FilesPanel(QWidget* parent)
    : QWidget(parent), m_pathBox(new QComboBox), m_view(new QTreeView), m_placeholder(new QLabel),
      m_transfers(new models::files::TransferJobsModel(this)),
      m_transfersView(new TransfersView(m_transfers))
{
    setObjectName(QStringLiteral("filesPanel"));
    m_pathBox->setObjectName(QStringLiteral("filesPath"));
    m_pathBox->setEditable(true);
    m_pathBox->addItems({kHome, QStringLiteral("/"), QStringLiteral("/workspace")});
    m_pathBox->setInsertPolicy(QComboBox::NoInsert);
    m_pathBox->setMinimumContentsLength(24);
    m_pathBox->setToolTip(tr("Folder to show: pick one or type a path and press Enter"));
    connect(m_pathBox, &QComboBox::textActivated, this, &FilesPanel::setRootPath);

    m_view->setObjectName(QStringLiteral("filesTree"));
    m_view->setSortingEnabled(true);
    m_view->setUniformRowHeights(true); // 10,000 rows lay out without measuring each
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->viewport()->setAcceptDrops(true);
    m_view->viewport()->installEventFilter(this);
    connect(m_view, &QTreeView::customContextMenuRequested, this, &FilesPanel::showContextMenu);
    connect(m_view, &QTreeView::activated, this, &FilesPanel::onActivated);

    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setText(tr("Select a running sandbox to see its files."));
    m_placeholder->setObjectName(QStringLiteral("filesPlaceholder"));

    buildActions();
    auto* bar = new QToolBar;
    bar->setIconSize(QSize(16, 16));
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    bar->addAction(m_up);
    bar->addWidget(m_pathBox);
    bar->addAction(m_refresh);
    bar->addSeparator();
    for (QAction* a : {m_open, m_uploadFiles, m_uploadFolder, m_download, m_newFolder, m_rename,
                       m_move, m_delete, m_copyPath})
        bar->addAction(a);

    m_stack = new QStackedLayout;
    m_stack->addWidget(m_placeholder);
    m_stack->addWidget(m_view);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(bar);
    layout->addLayout(m_stack, 1);
    layout->addWidget(m_transfersView);
    connect(m_transfers, &models::files::TransferJobsModel::jobFinished, this,
            &FilesPanel::onJobFinished);
    buildModel();
    updateActions();
}

FilesPanel::~FilesPanel()
{
    m_transfers->cancelAll(); // clean up remote temporaries and local staging folders
}

void FilesPanel::buildActions()
{
    const auto make = [this](const QString& text, const QString& name, auto slot) {
        auto* a = new QAction(text, this);
        a->setObjectName(name);
        a->setIcon(IconTheme::icon(iconOf(name)));
        connect(a, &QAction::triggered, this, slot);
        addAction(a);
        return a;
    };
    m_up = make(tr("Up"), QStringLiteral("filesUp"),
                [this] { setRootPath(RemotePath::parentOf(rootPath())); });
    m_refresh = make(tr("Refresh"), QStringLiteral("filesRefresh"), [this] {
        if (m_model)
            m_model->refresh();
    });
    m_refresh->setShortcut(QKeySequence::Refresh);
    m_open = make(tr("Open"), QStringLiteral("filesOpen"), &FilesPanel::openSelected);
    m_uploadFiles =
        make(tr("Upload…"), QStringLiteral("filesUpload"), &FilesPanel::uploadFilesDialog);
    m_uploadFolder = make(tr("Upload folder…"), QStringLiteral("filesUploadFolder"),
                          &FilesPanel::uploadFolderDialog);
    m_download =
        make(tr("Download…"), QStringLiteral("filesDownload"), &FilesPanel::downloadSelected);
    m_newFolder = make(tr("New folder…"), QStringLiteral("filesNewFolder"), &FilesPanel::newFolder);
    m_rename = make(tr("Rename…"), QStringLiteral("filesRename"), &FilesPanel::renameSelected);
    m_rename->setShortcut(Qt::Key_F2);
    m_move = make(tr("Move…"), QStringLiteral("filesMove"), &FilesPanel::moveSelected);
    m_delete = make(tr("Delete…"), QStringLiteral("filesDelete"), &FilesPanel::deleteSelected);
    m_delete->setShortcut(QKeySequence::Delete);
    m_copyPath = make(tr("Copy path"), QStringLiteral("filesCopyPath"), &FilesPanel::copyPath);
    m_openTerminal = make(tr("Open terminal here"), QStringLiteral("filesOpenTerminal"),
                          [this] { emit openTerminalRequested(m_sandboxId, currentDir()); });
    for (QAction* a : actions())
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
}

void FilesPanel::buildModel()
{
    const QString root = m_model ? m_model->rootPath() : kHome;
    delete m_feed; // first: it closes its watcher and lets go of the model
    delete m_proxy;
    delete m_ops;
    delete m_model;
    m_model = new SandboxFileModel(m_api, this);
    m_proxy = new FileIconProxy(this);
    m_proxy->setSourceModel(m_model);
    m_ops = new models::files::FileOperations(m_api, m_model, this);
    m_view->setModel(m_proxy);
    m_view->sortByColumn(SandboxFileModel::NameColumn, Qt::AscendingOrder);
    QHeaderView* header = m_view->header();
    header->setSectionResizeMode(SandboxFileModel::NameColumn, QHeaderView::Stretch);
    header->setStretchLastSection(false);
    // Wide enough for their longest usual text (measuring 10,000 rows would stall the app).
    const QFontMetrics fm(m_view->font());
    const int pad = 4 * fm.averageCharWidth(); // margins and the sort arrow
    header->resizeSection(SandboxFileModel::SizeColumn,
                          fm.horizontalAdvance(QStringLiteral("1023.9 KiB")) + pad);
    header->resizeSection(SandboxFileModel::ModifiedColumn,
                          fm.horizontalAdvance(QStringLiteral("2026-12-31 23:59")) + pad);
    header->resizeSection(SandboxFileModel::PermissionsColumn,
                          fm.horizontalAdvance(QStringLiteral("drwxr-xr-x")) + pad);
    connect(m_ops, &models::files::FileOperations::failed, this, &FilesPanel::errorOccurred);
    connect(m_ops, &models::files::FileOperations::succeeded, this, &FilesPanel::message);
    connect(m_model, &SandboxFileModel::listFailed, this,
            [this](const QString&, const client::ApiError& e) {
                // Not an error of the user's: a paused sandbox answers no listing, and the
                // change feed lists the folders again once it runs.
                if (e.code == QLatin1String("SANDBOX_PAUSED"))
                    emit message(tr("Files: the sandbox is paused; its folders list again when "
                                    "it runs"));
                else
                    emit errorOccurred(e);
            });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &FilesPanel::updateActions);
    connect(m_model, &QAbstractItemModel::modelReset, this, &FilesPanel::updateActions);
    m_model->setLocation(m_sandboxId, root);
    m_feed = new models::files::FileChangeFeed(m_api, m_model, this);
    connect(m_feed, &models::files::FileChangeFeed::stateChanged, this, [this](auto state) {
        const bool live = state == models::files::FileChangeFeed::State::Live;
        m_refresh->setToolTip(live ? tr("Refresh (changes in the sandbox show by themselves)")
                                   : tr("Refresh: list the folders again"));
    });
}

void FilesPanel::setBackend(client::LizardApi* api, DocumentTabs* documents)
{
    m_transfers->cancelAll();
    m_api = api;
    m_documents = documents;
    m_sandboxId.clear();
    buildModel();
    showSandbox({});
}

void FilesPanel::showSandbox(const QString& sandboxId)
{
    if (sandboxId == m_sandboxId && m_model->sandboxId() == sandboxId)
        return;
    m_sandboxId = m_api ? sandboxId : QString();
    m_model->setLocation(m_sandboxId, kHome); // every sandbox starts at its home
    m_pathBox->setCurrentText(m_model->rootPath());
    m_stack->setCurrentWidget(m_sandboxId.isEmpty() ? static_cast<QWidget*>(m_placeholder)
                                                    : m_view);
    updateActions();
}

void FilesPanel::setRootPath(const QString& path)
{
    if (m_sandboxId.isEmpty())
        return;
    m_model->setLocation(m_sandboxId, RemotePath::clean(path));
    m_pathBox->setCurrentText(m_model->rootPath());
    updateActions();
}

QString FilesPanel::rootPath() const
{
    return m_model->rootPath();
}

bool FilesPanel::followsChanges() const
{
    return m_feed && m_feed->state() == models::files::FileChangeFeed::State::Live;
}

client::FileEntry FilesPanel::selectedEntry() const
{
    return m_model->entry(m_proxy->mapToSource(m_view->currentIndex()));
}

bool FilesPanel::hasSelection() const
{
    return m_view->currentIndex().isValid();
}

bool FilesPanel::selectedIsFolder() const
{
    return m_view->currentIndex().data(SandboxFileModel::IsDirRole).toBool();
}

QString FilesPanel::selectedPath() const
{
    return hasSelection() ? selectedEntry().path : QString();
}

QString FilesPanel::currentDir() const
{
    if (!hasSelection())
        return rootPath();
    const QString path = selectedPath();
    return selectedIsFolder() ? path : RemotePath::parentOf(path);
}

bool FilesPanel::selectPath(const QString& path)
{
    const QModelIndex source = m_model->indexForPath(path);
    if (!source.isValid())
        return false;
    m_view->setCurrentIndex(m_proxy->mapFromSource(source));
    return true;
}

void FilesPanel::updateActions()
{
    const bool sandbox = !m_sandboxId.isEmpty() && m_api;
    const bool selected = sandbox && hasSelection();
    for (QAction* a : {m_up, m_refresh, m_uploadFiles, m_uploadFolder, m_newFolder, m_openTerminal})
        a->setEnabled(sandbox);
    for (QAction* a : {m_open, m_download, m_rename, m_move, m_delete, m_copyPath})
        a->setEnabled(selected);
    m_up->setEnabled(sandbox && rootPath() != QLatin1String("/"));
    m_pathBox->setEnabled(sandbox);
}

void FilesPanel::showContextMenu(const QPoint& pos)
{
    if (m_sandboxId.isEmpty())
        return;
    const QModelIndex at = m_view->indexAt(pos);
    if (at.isValid())
        m_view->setCurrentIndex(at);
    else
        m_view->setCurrentIndex({});
    QMenu menu(this);
    if (at.isValid()) {
        menu.addActions({m_open, m_download, m_copyPath});
        menu.addSeparator();
        menu.addActions({m_rename, m_move, m_delete});
        menu.addSeparator();
    }
    menu.addActions({m_newFolder, m_uploadFiles, m_uploadFolder, m_refresh});
    menu.addSeparator();
    menu.addAction(m_openTerminal);
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

void FilesPanel::onActivated(const QModelIndex& index)
{
    // Folders expand by themselves; files open.
    if (!index.data(SandboxFileModel::IsDirRole).toBool())
        openPath(index.data(SandboxFileModel::PathRole).toString());
}

QString FilesPanel::dropTarget(const QPoint& viewportPos) const
{
    const QModelIndex at = m_view->indexAt(viewportPos);
    if (!at.isValid())
        return rootPath();
    const QString path = at.data(SandboxFileModel::PathRole).toString();
    return at.data(SandboxFileModel::IsDirRole).toBool() ? path : RemotePath::parentOf(path);
}

bool FilesPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched != m_view->viewport() || m_sandboxId.isEmpty())
        return QWidget::eventFilter(watched, event);
    switch (event->type()) {
    case QEvent::DragEnter:
    case QEvent::DragMove: {
        auto* e = static_cast<QDropEvent*>(event);
        if (localPathsOf(e->mimeData()).isEmpty())
            return false;
        e->setDropAction(Qt::CopyAction);
        e->accept();
        return true;
    }
    case QEvent::Drop: {
        auto* e = static_cast<QDropEvent*>(event);
        const QStringList paths = localPathsOf(e->mimeData());
        if (paths.isEmpty())
            return false;
        e->setDropAction(Qt::CopyAction);
        e->accept();
        uploadPaths(paths, dropTarget(e->position().toPoint()));
        return true;
    }
    default:
        return QWidget::eventFilter(watched, event);
    }
}

void FilesPanel::uploadPaths(const QStringList& localPaths, const QString& remoteDir)
{
    if (!m_api || m_sandboxId.isEmpty() || localPaths.isEmpty())
        return;
    // Names that already exist there (as far as the tree has listed) are replaced only on request.
    QStringList clashes;
    for (const QString& local : localPaths) {
        const QString name = QFileInfo(local).fileName();
        if (m_model->indexForPath(RemotePath::join(remoteDir, name)).isValid())
            clashes.append(name);
    }
    bool replace = true;
    if (!clashes.isEmpty()) {
        replace = QMessageBox::question(this, tr("Replace files?"),
                                        tr("%1 already contains %2. Replace (folders are merged)?")
                                            .arg(remoteDir, clashes.join(QStringLiteral(", "))),
                                        QMessageBox::Yes | QMessageBox::No,
                                        QMessageBox::No) == QMessageBox::Yes;
    }
    for (const QString& local : localPaths) {
        if (!replace && clashes.contains(QFileInfo(local).fileName()))
            continue;
        m_transfers->addJob(new models::files::UploadJob(m_api, m_sandboxId, local, remoteDir));
    }
}

void FilesPanel::download(const QString& remotePath, bool isFolder, const QString& localTarget)
{
    if (!m_api || m_sandboxId.isEmpty())
        return;
    m_transfers->addJob(
        new models::files::DownloadJob(m_api, m_sandboxId, remotePath, isFolder, localTarget));
}

void FilesPanel::onJobFinished(TransferJob* job)
{
    if (!job->changedRemoteDir().isEmpty() && job->sandboxId() == m_sandboxId)
        m_ops->changed(job->changedRemoteDir());
    switch (job->state()) {
    case TransferJob::State::Done:
        emit message(tr("%1: done").arg(job->title()));
        break;
    case TransferJob::State::Failed:
        emit problem(tr("%1 failed: %2").arg(job->title(), job->message()));
        break;
    default:
        break;
    }
}

} // namespace lizard::ui::files
