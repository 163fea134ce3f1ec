#pragma once
// A text file of a sandbox in an editor tab: syntax highlighting from the file's name, Ctrl+S
// saves it back. Before saving it looks at the file in the sandbox again: if it changed since
// it was opened (modification time or size), it asks before overwriting. The tab title gets a
// "*" while there are unsaved changes, and closing asks about them.

#include "client/outcome.h"
#include "ui/documentpage.h"

class QLabel;
class QPlainTextEdit;

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models::files {
class RemoteFile;
} // namespace lizard::models::files

namespace lizard::ui::files {

class FileEditorPage : public DocumentPage
{
    Q_OBJECT
public:
    // entry: the file as stat/list saw it when content was read.
    FileEditorPage(client::LizardApi* api, const QString& sandboxId, const client::FileEntry& entry,
                   const QString& text, QWidget* parent = nullptr);

    QString title() const override;
    QString toolTip() const override;
    QString sandboxId() const override;
    bool confirmClose() override;

    QString path() const;
    QPlainTextEdit* editor() const { return m_editor; }
    bool isModified() const;
    bool isSaving() const { return m_saving; }
    QString statusText() const;

public slots:
    void save();

signals:
    void saved();
    void saveFailed(const lizard::client::ApiError& error);

private:
    void checkThenWrite();
    bool askOverwrite(const QString& why);
    void write();
    void failSave(const client::ApiError& error);
    void closeMe();

    models::files::RemoteFile* m_file; // what the sandbox held when we last read or wrote it
    QPlainTextEdit* m_editor;
    QLabel* m_status;
    bool m_saving = false;
    bool m_closeAfterSave = false;
};

} // namespace lizard::ui::files
