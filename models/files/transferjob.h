#pragma once
// One upload or download the files panel runs (a file or a whole folder), with progress and
// cancel. Subclasses chain API calls; this base keeps the state the transfers list shows.

#include "client/outcome.h"
#include "client/pendingcall.h"

#include <QObject>
#include <QPointer>

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models::files {

class TransferJob : public QObject
{
    Q_OBJECT
public:
    enum class Direction { Upload, Download };
    enum class State { Running, Done, Failed, Cancelled };

    TransferJob(client::LizardApi* api, const QString& sandboxId, Direction direction,
                QObject* parent = nullptr);

    virtual void start() = 0;
    // Stops what runs now and cleans up; state becomes Cancelled and finished() follows.
    void cancel();

    Direction direction() const { return m_direction; }
    State state() const { return m_state; }
    bool isFinished() const { return m_state != State::Running; }
    QString title() const { return m_title; }
    QString message() const { return m_message; } // error text, or a note when done
    qint64 bytesDone() const { return m_done; }
    qint64 bytesTotal() const { return m_total; } // 0: not known yet
    QString sandboxId() const { return m_sandboxId; }
    // The sandbox folder whose listing changed (uploads), or empty.
    QString changedRemoteDir() const { return m_changedDir; }

signals:
    void progressChanged();
    void finished();

protected:
    void setTitle(const QString& title) { m_title = title; }
    void setProgress(qint64 done, qint64 total);
    void setChangedRemoteDir(const QString& dir) { m_changedDir = dir; }
    void finish(State state, const QString& message = {});
    void fail(const client::ApiError& error) { finish(State::Failed, error.toDisplayString()); }
    void fail(const QString& message) { finish(State::Failed, message); }
    // The call running now (cancel() cancels it).
    void track(client::PendingCall* call) { m_call = call; }
    virtual void cleanUp() {}

    QPointer<client::LizardApi> m_api;
    QString m_sandboxId;

private:
    Direction m_direction;
    State m_state = State::Running;
    QString m_title;
    QString m_message;
    QString m_changedDir;
    qint64 m_done = 0;
    qint64 m_total = 0;
    QPointer<client::PendingCall> m_call;
};

} // namespace lizard::models::files
