#pragma once
// Runs console commands in one sandbox, one at a time, as streaming execs. Keeps the
// command history and the full output (OutputLog); emits output in the batches the
// client delivers so a view can coalesce them.

#include "client/lizardapi.h"
#include "models/commandhistory.h"
#include "models/outputlog.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

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

    QPointer<client::LizardApi> m_api;
    QString m_sandboxId;
    client::ExecStream* m_stream = nullptr;
    int m_pid = 0;
    bool m_logBroken = false;
    QTimer m_graceTimer;
    CommandHistory m_history;
    OutputLog m_log;
};

} // namespace lizard::models
