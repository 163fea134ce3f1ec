#include "ui/files/fileeditorpage.h"

#include "ui/documenttabs.h"

#if __has_include("ui/highlight/highlighterfactory.h")
#include "ui/highlight/highlighterfactory.h"
#define LIZARD_FILES_HIGHLIGHT 1
#endif

#include <QFontDatabase>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
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
    : DocumentPage(parent), m_api(api), m_sandboxId(sandboxId), m_entry(entry),
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
    const QString name = m_entry.path.section(QLatin1Char('/'), -1);
    return isModified() ? name + QStringLiteral(" *") : name;
}

QString FileEditorPage::toolTip() const
{
    return QStringLiteral("%1: %2").arg(m_sandboxId, m_entry.path);
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
    if (!m_api) {
        ApiError e;
        e.kind = ApiError::Kind::Network;
        e.what = tr("Save %1").arg(m_entry.path);
        e.message = tr("not connected");
        return failSave(e);
    }
    m_saving = true;
    m_status->setText(tr("Saving…"));
    checkThenWrite();
}

void FileEditorPage::checkThenWrite()
{
    // Someone (a command in the console, a program) may have changed the file meanwhile.
    m_api->statFile(m_sandboxId, m_entry.path, this, [this](Outcome<FileEntry> r) {
        if (!r && r.error().kind != ApiError::Kind::NotFound)
            return failSave(r.error());
        QString why;
        if (!r)
            why = tr("%1 was deleted in the sandbox since you opened it.").arg(m_entry.path);
        else if (r.value().modifiedAt != m_entry.modifiedAt || r.value().size != m_entry.size)
            why = tr("%1 changed in the sandbox since you opened it (now %2 bytes, modified %3).")
                      .arg(m_entry.path)
                      .arg(r.value().size)
                      .arg(r.value().modifiedAt.toLocalTime().toString(Qt::ISODate));
        if (!why.isEmpty() && !askOverwrite(why)) {
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
    if (!m_api)
        return;
    const QByteArray bytes = m_editor->toPlainText().toUtf8();
    m_api->writeFile(m_sandboxId, m_entry.path, bytes, this, [this](Outcome<client::Unit> r) {
        if (!r)
            return failSave(r.error());
        if (!m_api)
            return;
        // The new baseline: what the sandbox says now that our bytes are there.
        m_api->statFile(m_sandboxId, m_entry.path, this, [this](Outcome<FileEntry> st) {
            if (!st)
                return failSave(st.error());
            finishSave(st.value());
        });
    });
}

void FileEditorPage::finishSave(const FileEntry& fresh)
{
    m_entry = fresh;
    m_saving = false;
    m_editor->document()->setModified(false);
    m_status->setText(
        tr("Saved %1 at %2")
            .arg(m_entry.path, QTime::currentTime().toString(QStringLiteral("HH:mm:ss"))));
    emit saved();
    if (std::exchange(m_closeAfterSave, false))
        closeMe();
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
        tr("%1 has unsaved changes. Save them to the sandbox?").arg(m_entry.path),
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
