#pragma once
// One runCode call in flight: streams the runner's events as signals and, at the end, holds the
// whole Execution (like the SDK's). Exactly one of finished or failed ends it; both come from the
// event loop, never from within runCode(). The run is a child of its CodeInterpreter: delete it
// (deleteLater from a slot is fine) once it ended; deleting it earlier only stops the signals,
// the code goes on running (use interrupt() to stop it).

#include "client/coderun/runcodetypes.h"
#include "client/types.h"

#include <QObject>
#include <functional>
#include <nlohmann/json.hpp>

namespace lizard::client {

class JsonReader;
class RunnerCall;

class CodeRun : public QObject
{
    Q_OBJECT
public:
    // Made by CodeInterpreter::runCode. `interrupter` asks the runner to stop this context's run.
    CodeRun(RunnerCall* call, QString contextId, std::function<void()> interrupter,
            QObject* parent);

    QString contextId() const { return m_contextId; }
    bool isFinished() const { return m_ended; }
    bool hasFailed() const { return m_failure.has_value(); }
    // What arrived so far; complete once finished.
    const Execution& execution() const { return m_execution; }
    const std::optional<ApiError>& failure() const { return m_failure; }

    // SIGINT to the kernel (Python: KeyboardInterrupt, the state is kept) or to the running
    // process (bash, javascript). The run still ends with finished (or failed).
    void interrupt();

signals:
    void stdoutReceived(const QString& text);
    void stderrReceived(const QString& text);
    void resultReceived(const lizard::client::ExecutionResult& result);
    void displayUpdated(const lizard::client::ExecutionResult& result); // same displayId as before
    void outputCleared(bool wait);
    void errorReceived(const lizard::client::ExecutionError& error);
    void noticeReceived(const QString& message);
    void finished(const lizard::client::Execution& execution);
    void failed(const lizard::client::ApiError& error);

private:
    void onEvent(const nlohmann::json& event);
    void handle(const JsonReader& event);
    void onFailed(const ApiError& error);

    QString m_contextId;
    std::function<void()> m_interrupter;
    Execution m_execution;
    std::optional<ApiError> m_failure;
    bool m_ended = false;
};

} // namespace lizard::client
