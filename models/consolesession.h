#pragma once
// Runs console commands in one sandbox, one at a time, as streaming execs. Keeps the
// command history and the full output (OutputLog); emits output in the batches the
// client delivers so a view can coalesce them.

#include "client/outcome.h"
#include "models/commandhistory.h"
#include "models/outputlog.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

namespace lizard::client {
class LizardApi;
class ExecStream;
} // namespace lizard::client

namespace lizard::models {

class ConsoleSession : public QObject
{
    Q_OBJECT
public:
    ConsoleSession(client::LizardApi* api, QString sandboxId, QObject* parent = nullptr);
    ~ConsoleSession() override;

    QString sandboxId() const { return m_sandboxId; }
    bool isRunning() const { return m_stream != nullptr; }
    // Starts `command` (run by the sandbox's shell). False if one is running or it is blank.
    bool run(const QString& command);
    // Stops the running command: SIGTERM to its process tree, then ends the stream if the
    // command has not exited after `graceMs`.
    void stop(int graceMs = 3000);

    // How the last command ended, in the console's words (also its last line in the log), set
    // before commandFinished / commandStopped / commandFailed. Each ending reads differently:
    // "[exit 3]", "[timed out after 600 s: killed (exit 124)]", "[killed by SIGKILL (exit
    // 137)]", "[out of memory: killed by the sandbox's OOM killer (exit 137)]", "[stopped (exit
    // 143)]", "[connection to lizard-local lost: the command may or may not have finished]",
    // "[could not reach lizard-local: the command did not run]", "[failed: …]".
    QString endingText() const { return m_ending; }
    // The marker for an exit: `stoppedByUser` when Stop sent the signal, `timeoutS` the limit.
    struct Exit
    {
        int code = 0;
        bool timedOut = false;
        bool oomKilled = false;
        bool stoppedByUser = false;
    };
    static QString exitText(const Exit& exit, int timeoutS);

    CommandHistory& history() { return m_history; }
    OutputLog& log() { return m_log; }

signals:
    void commandStarted(const QString& command);
    void output(const QList<lizard::client::OutputLine>& lines);
    void commandFinished(int exitCode);
    void commandStopped();
    void commandFailed(const lizard::client::ApiError& error);
    void runningChanged(bool running);
    void logError(const QString& message);

private:
    void onOutput(const QList<client::OutputLine>& lines);
    void finish();
    void forceStop();
    void setEnding(const QString& text);

    QPointer<client::LizardApi> m_api;
    QString m_sandboxId;
    client::ExecStream* m_stream = nullptr;
    int m_pid = 0;
    bool m_logBroken = false;
    QTimer m_graceTimer;
    QString m_ending;
    CommandHistory m_history;
    OutputLog m_log;
};

} // namespace lizard::models
