// FilesPanel: what its actions do (dialogs, then FileOperations / transfer jobs / tabs).
#include "models/files/fileoperations.h"
#include "models/files/remotefile.h"
#include "models/files/remotepath.h"
#include "models/files/sandboxfilemodel.h"
#include "ui/documenttabs.h"
#include "ui/files/fileeditorpage.h"
#include "ui/files/filespanel.h"
#include "ui/files/imageviewpage.h"

#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QImage>
#include <QInputDialog>
#include <QMessageBox>
#include <QPushButton>
#include <QStandardPaths>
#include <QStringDecoder>
#include <optional>

namespace lizard::ui::files {

using models::files::RemotePath;

namespace {

constexpr qint64 kMaxOpenBytes = 16 << 20; // larger files are downloaded, not opened in a tab

bool looksLikeImage(const QString& path)
{
    static const QStringList suffixes{
        QStringLiteral("png"), QStringLiteral("jpg"), QStringLiteral("jpeg"),
        QStringLiteral("gif"), QStringLiteral("bmp"), QStringLiteral("webp"),
        QStringLiteral("svg"), QStringLiteral("ico"), QStringLiteral("ppm")};
    return suffixes.contains(QFileInfo(path).suffix().toLower());
}

// Text we can edit and save back unchanged: valid UTF-8 without NUL bytes.
std::optional<QString> asText(const QByteArray& bytes)
{
    if (bytes.contains('\0'))
        return std::nullopt;
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    QString text = decoder(bytes);
    if (decoder.hasError())
        return std::nullopt;
    return text;
}

QString localStartDir()
{
    const QString downloads = QStandardPaths::writableLocation(QStandardPaths::DownloadLocation);
    return downloads.isEmpty() ? QDir::homePath() : downloads;
}

} // namespace

void FilesPanel::openSelected()
{
    if (!hasSelection())
        return;
    if (selectedIsFolder())
        return setRootPath(selectedPath()); // "open" on a folder shows it
    openPath(selectedPath());
}

void FilesPanel::openPath(const QString& path)
{
    if (!m_api || m_sandboxId.isEmpty())
        return;
    if (m_documents) {
        for (DocumentPage* page : m_documents->documents()) {
            if (page->sandboxId() != m_sandboxId)
                continue;
            auto* editor = qobject_cast<FileEditorPage*>(page);
            auto* image = qobject_cast<ImageViewPage*>(page);
            if ((editor && editor->path() == path) || (image && image->path() == path))
                return m_documents->showDocument(page);
        }
    }
    const QString id = m_sandboxId;
    models::files::RemoteFile::open(
        m_api, id, path, kMaxOpenBytes, this,
        [this, id](client::Outcome<models::files::RemoteFile::Opened> opened) {
            if (!opened)
                return emit errorOccurred(opened.error());
            const client::FileEntry& entry = opened.value().entry;
            if (entry.type == QLatin1String("dir"))
                return setRootPath(entry.path);
            if (!opened.value().read)
                return emit problem(
                    tr("%1 is %2: too large to open here; download it instead")
                        .arg(entry.path, models::files::SandboxFileModel::formatSize(entry.size)));
            if (id == m_sandboxId)
                openWithContent(entry, opened.value().content);
        });
}

void FilesPanel::openWithContent(const client::FileEntry& entry, const QByteArray& content)
{
    if (!m_documents)
        return;
    DocumentPage* page = nullptr;
    QImage image;
    if (looksLikeImage(entry.path) && image.loadFromData(content)) {
        page = new ImageViewPage(m_sandboxId, entry.path, image);
    } else if (const auto text = asText(content)) {
        auto* editor = new FileEditorPage(m_api, m_sandboxId, entry, *text);
        connect(editor, &FileEditorPage::saveFailed, this, &FilesPanel::errorOccurred);
        connect(editor, &FileEditorPage::saved, this, [this, path = entry.path] {
            if (m_ops)
                m_ops->changed(RemotePath::parentOf(path)); // size and time changed in the tree
        });
        page = editor;
    } else {
        return emit problem(tr("%1 is not text (or not UTF-8) and not an image this app can show; "
                               "download it instead")
                                .arg(entry.path));
    }
    m_documents->openDocument(page);
}

void FilesPanel::uploadFilesDialog()
{
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Upload files to %1").arg(currentDir()), QDir::homePath());
    uploadPaths(files, currentDir());
}

void FilesPanel::uploadFolderDialog()
{
    const QString folder = QFileDialog::getExistingDirectory(
        this, tr("Upload a folder to %1").arg(currentDir()), QDir::homePath());
    if (!folder.isEmpty())
        uploadPaths({folder}, currentDir());
}

void FilesPanel::downloadSelected()
{
    if (!hasSelection())
        return;
    const client::FileEntry e = selectedEntry();
    const bool folder = selectedIsFolder();
    const QString proposal = QDir(localStartDir()).filePath(e.name);
    // A folder arrives as a folder of this name; the dialog asks about replacing files only.
    const QString target = QFileDialog::getSaveFileName(
        this, folder ? tr("Download folder %1 as").arg(e.path) : tr("Download %1 as").arg(e.path),
        proposal, {}, nullptr, folder ? QFileDialog::DontConfirmOverwrite : QFileDialog::Options());
    if (target.isEmpty())
        return;
    if (folder && QFileInfo::exists(target))
        return emit problem(tr("%1 already exists; choose a new name for the folder").arg(target));
    download(e.path, folder, target);
}

void FilesPanel::newFolder()
{
    const QString dir = currentDir();
    bool ok = false;
    const QString name =
        QInputDialog::getText(this, tr("New folder"), tr("Name of the new folder in %1:").arg(dir),
                              QLineEdit::Normal, {}, &ok);
    if (ok)
        m_ops->makeDir(dir, name.trimmed());
}

void FilesPanel::renameSelected()
{
    if (!hasSelection())
        return;
    const client::FileEntry e = selectedEntry();
    bool ok = false;
    const QString name = QInputDialog::getText(
        this, tr("Rename"), tr("New name for %1:").arg(e.path), QLineEdit::Normal, e.name, &ok);
    if (ok && name != e.name)
        m_ops->rename(e.path, name);
}

void FilesPanel::moveSelected()
{
    if (!hasSelection())
        return;
    const client::FileEntry e = selectedEntry();
    bool ok = false;
    const QString to = QInputDialog::getText(
        this, tr("Move"), tr("Move %1 to (an existing folder, or a new path):").arg(e.path),
        QLineEdit::Normal, RemotePath::parentOf(e.path), &ok);
    if (ok)
        m_ops->move(e.path, to);
}

void FilesPanel::deleteSelected()
{
    if (!hasSelection())
        return;
    const client::FileEntry e = selectedEntry();
    const QString what = e.type == QLatin1String("dir")
                             ? tr("the folder %1 and everything in it").arg(e.path)
                         : e.type == QLatin1String("symlink")
                             ? tr("the link %1 (what it leads to stays)").arg(e.path)
                             : e.path;
    QMessageBox box(QMessageBox::Warning, tr("Delete"),
                    tr("Delete %1? This cannot be undone.").arg(what), QMessageBox::Cancel, this);
    box.setObjectName(QStringLiteral("confirmDeleteBox"));
    QPushButton* del = box.addButton(tr("Delete"), QMessageBox::DestructiveRole);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    if (box.clickedButton() == del)
        m_ops->remove(e.path);
}

void FilesPanel::copyPath()
{
    if (!hasSelection())
        return;
    const QString path = selectedEntry().path;
    QGuiApplication::clipboard()->setText(path);
    emit message(tr("Copied %1").arg(path));
}

} // namespace lizard::ui::files
