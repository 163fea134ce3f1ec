#pragma once
// "Fork notebook": the notebook's Python variables are saved inside its sandbox (the runner's
// save_all), then the sandbox is forked once. The caller opens a copy of the notebook bound to
// the fork; its kernel starts fresh and loads the saved variables on its first run (the runner
// then says which came along). The original keeps running untouched. One fork at a time per
// forker; it deletes itself when done.

#include <QObject>
#include <QPointer>

namespace lizard::client {
class LizardApi;
}

namespace lizard::notebook {

class NotebookSession;

class NotebookForker : public QObject
{
    Q_OBJECT
public:
    NotebookForker(client::LizardApi* api, NotebookSession* source, QObject* parent = nullptr);
    void start();

signals:
    void progress(const QString& text);
    // The fork runs; `note` says what happened to the variables (empty: all saved).
    void forked(const QString& sandboxId, const QString& note);
    void failed(const QString& message);

private:
    void fork();
    void fail(const QString& message);

    QPointer<client::LizardApi> m_api;
    QPointer<NotebookSession> m_source;
    QString m_saveNote;
};

} // namespace lizard::notebook
