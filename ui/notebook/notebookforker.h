#pragma once
// "Fork notebook": the notebook's Python variables are saved inside its sandbox (the runner's
// save_all), the sandbox is forked once, and a copy of the notebook opens bound to the fork,
// on the same context, titled as a branch of the original. The fork's kernel starts fresh and
// loads the saved variables on its first run (the runner then says which came along). The
// original keeps running untouched. One fork at a time per forker; it deletes itself when done.

#include <QObject>
#include <QPointer>

namespace lizard::client {
class LizardApi;
}

namespace lizard::ui::notebook {

class NotebookPage;

class NotebookForker : public QObject
{
    Q_OBJECT
public:
    NotebookForker(client::LizardApi* api, NotebookPage* source, QObject* parent = nullptr);
    void start();

signals:
    void progress(const QString& text);
    // The branch page is made but not shown yet (the caller adds it to the tabs).
    void forked(lizard::ui::notebook::NotebookPage* branch);
    void failed(const QString& message);

private:
    void fork();
    void openBranch(const QString& sandboxId);
    void fail(const QString& message);

    QPointer<client::LizardApi> m_api;
    QPointer<NotebookPage> m_source;
    QString m_saveNote;
};

} // namespace lizard::ui::notebook
