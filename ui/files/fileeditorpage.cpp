#include "ui/files/fileeditorpage.h"

#include "models/files/remotefile.h"
#include "ui/documenttabs.h"

#if __has_include("ui/highlight/highlighterfactory.h")
#include "ui/highlight/highlighterfactory.h"
#define LIZARD_FILES_HIGHLIGHT 1
#endif

#include <QFontDatabase>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QShortcut>
#include <QTime>
#include <QTimer>
#include <QVBoxLayout>

namespace lizard::ui::files {

using client::ApiError;
using client::FileEntry;
using client::Outcome;

FileEditorPage::FileEditorPage(client::LizardApi* api, const QString& sandboxId,
                               const FileEntry& entry, const QString& text, QWidget* parent)
    : DocumentPage(parent), m_file(new models::files::RemoteFile(api, sandboxId, entry, this)),
      m_editor(new QPlainTextEdit), m_status(new QLabel)
{
    setObjectName(QStringLiteral("fileEditorPage"));
    m_editor->setObjectName(QStringLiteral("fileEditor"));
    m_editor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_editor->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_editor->setTabStopDistance(4 * m_editor->fontMetrics().horizontalAdvance(QLatin1Char(' ')));
    m_editor->setPlainText(text);
    m_editor->document()->setModified(false);
#ifdef LIZARD_FILES_HIGHLIGHT
    highlight::createHighlighter(m_editor->document(), highlight::languageForFileName(entry.path));
#endif
    m_status->setObjectName(QStringLiteral("fileEditorStatus"));
    m_status->setText(tr("%1 in sandbox %2 · Ctrl+S saves").arg(entry.path, sandboxId));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_editor, 1);
    layout->addWidget(m_status);

    auto* saveShortcut = new QShortcut(QKeySequence::Save, this);
    saveShortcut->setContext(Qt::WidgetWithChildrenShortcut);
    connect(saveShortcut, &QShortcut::activated, this, &FileEditorPage::save);
    connect(m_editor->document(), &QTextDocument::modificationChanged, this,
            &DocumentPage::titleChanged);
}

QString FileEditorPage::title() const
{
    const QString name = path().section(QLatin1Char('/'), -1);
    return isModified() ? name + QStringLiteral(" *") : name;
}

QString FileEditorPage::toolTip() const
{
    return QStringLiteral("%1: %2").arg(sandboxId(), path());
}

QString FileEditorPage::sandboxId() const
{
    return m_file->sandboxId();
}

QString FileEditorPage::path() const
{
    return m_file->entry().path;
}

bool FileEditorPage::isModified() const
{
    return m_editor->document()->isModified();
}

QString FileEditorPage::statusText() const
{
    return m_status->text();
}

void FileEditorPage::save()
{
    if (m_saving)
        return;
    m_saving = true;
    m_status->setText(tr("Saving…"));
    checkThenWrite();
}

void FileEditorPage::checkThenWrite()
{
    // Someone (a command in the console, a program) may have changed the file meanwhile.
    m_file->checkUnchanged([this](Outcome<QString> why) {
        if (!why)
            return failSave(why.error());
        if (!why.value().isEmpty() && !askOverwrite(why.value())) {
            m_saving = false;
            m_closeAfterSave = false;
            m_status->setText(tr("Not saved: the file in the sandbox is newer"));
            return;
        }
        write();
    });
}

bool FileEditorPage::askOverwrite(const QString& why)
{
    QMessageBox box(QMessageBox::Warning, tr("File changed in the sandbox"),
                    why + QStringLiteral("\n\n") + tr("Overwrite it with your version?"),
                    QMessageBox::NoButton, this);
    box.setObjectName(QStringLiteral("staleFileBox"));
    QPushButton* overwrite = box.addButton(tr("Overwrite"), QMessageBox::DestructiveRole);
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() == overwrite;
}

void FileEditorPage::write()
{
    m_file->save(m_editor->toPlainText().toUtf8(), [this](Outcome<FileEntry> fresh) {
        if (!fresh)
            return failSave(fresh.error());
        m_saving = false;
        m_editor->document()->setModified(false);
        m_status->setText(
            tr("Saved %1 at %2")
                .arg(path(), QTime::currentTime().toString(QStringLiteral("HH:mm:ss"))));
        emit saved();
        if (std::exchange(m_closeAfterSave, false))
            closeMe();
    });
}

void FileEditorPage::failSave(const ApiError& error)
{
    m_saving = false;
    m_closeAfterSave = false;
    m_status->setText(tr("Not saved: %1").arg(error.toDisplayString()));
    emit saveFailed(error);
}

bool FileEditorPage::confirmClose()
{
    if (!isModified())
        return true;
    const auto answer = QMessageBox::question(
        this, tr("Unsaved changes"),
        tr("%1 has unsaved changes. Save them to the sandbox?").arg(path()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Discard)
        return true;
    if (answer == QMessageBox::Save) {
        m_closeAfterSave = true; // the tab closes once the sandbox has the file
        save();
    }
    return false;
}

void FileEditorPage::closeMe()
{
    for (QWidget* w = parentWidget(); w != nullptr; w = w->parentWidget()) {
        if (auto* tabs = qobject_cast<DocumentTabs*>(w)) {
            QTimer::singleShot(0, tabs, [tabs, self = QPointer<FileEditorPage>(this)] {
                if (self)
                    tabs->closeDocument(self);
            });
            return;
        }
    }
}

} // namespace lizard::ui::files
