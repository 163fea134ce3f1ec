#pragma once
// The notebook's CodeRunner on the client's code interpreter: runs cells in one context of a
// sandbox (a created context, or the default context of a language) and maps the runner's events
// to notebook outputs: stdout/stderr -> StreamOutput, results -> RichOutput with every MIME type
// (application/json and */*+json as JSON values), errors -> ErrorOutput with the ANSI traceback.
// Beyond CodeRunner it reports what the notebook UI shows: the kernel state, notices ("started a
// fresh kernel"), cleared outputs and updated displays.

#include "client/coderun/codeinterpreter.h"
#include "notebook/coderunner.h"

#include <QPointer>

namespace lizard::notebook {

class ClientCodeRunner : public CodeRunner
{
    Q_OBJECT
public:
    // `contextId` empty: the default context of `language` (python, javascript, bash).
    ClientCodeRunner(client::CodeInterpreter* interpreter, QString contextId,
                     QString language = QStringLiteral("python"), QObject* parent = nullptr);
    ~ClientCodeRunner() override;

    QString contextId() const { return m_contextId; }
    QString language() const { return m_language; }
    // Switches context (the toolbar's selector); takes effect with the next run.
    void setContext(const QString& contextId, const QString& language);
    void setTimeout(double seconds) { m_timeoutS = seconds; }
    double timeout() const { return m_timeoutS; }
    client::CodeInterpreter* interpreter() const { return m_interpreter; }
    // Runs go through interpreter from now on (a new connection to the same sandbox); the
    // context stays, and with it the kernel's variables if the kernel is still alive there.
    void setInterpreter(client::CodeInterpreter* interpreter);

    // The context id the runs really use (default-<language> for a default context).
    QString effectiveContextId() const;
    client::KernelState kernelState() const;

    // Asked before each run (e.g. to resume a paused sandbox first): the run starts once the gate
    // calls `proceed` with an empty string; a non-empty one is the cell's error instead.
    using RunGate = std::function<void(std::function<void(QString error)> proceed)>;
    void setRunGate(RunGate gate) { m_gate = std::move(gate); }

    // Starts the context's kernel now rather than with the first run (python, and only while
    // its state is unknown): the state reads "starting" until it is idle. A cell run meanwhile
    // waits for it, since two runner processes must not start the same kernel.
    void startKernel();

    void run(const QString& code, const QHash<QString, QString>& envs) override;
    void interrupt() override;
    void complete(const QString& code, int cursor, QObject* ctx, CompleteDone done) override;
    void inspect(const QString& code, int cursor, QObject* ctx, InspectDone done) override;
    void listVariables(const QString& name, QObject* ctx, VariablesDone done) override;
    void tableRows(const TableRowsRequest& request, QObject* ctx, TableRowsDone done) override;
    void tableForVariable(const QString& name, QObject* ctx, TableDone done) override;
    // A fresh kernel for the context (variables gone); `done` gets an empty string or the error.
    void restart(std::function<void(QString error)> done);

    // The run's text as ErrorOutput, RichOutput: used by run(), public for tests.
    static ErrorOutput toErrorOutput(const client::ExecutionError& error);
    static RichOutput toRichOutput(const client::ExecutionResult& result);

signals:
    void kernelStateChanged(lizard::client::KernelState state);
    void noticeReceived(const QString& message);
    void outputCleared(bool wait);

private:
    // What a cell shows when its run broke off: a lost connection says whether the cell may
    // have run ("lizard-local" for a server on this machine).
    QString failureText(const client::ApiError& error) const;
    QString serverName() const;
    void onInterpreterState(const QString& contextId, client::KernelState state);
    void gatedRun(const QString& code, const QHash<QString, QString>& envs);
    void startRun(const QString& code, const QHash<QString, QString>& envs);

    QPointer<client::CodeInterpreter> m_interpreter;
    QString m_contextId;
    QString m_language;
    double m_timeoutS = 280; // the longest a cell may run on the fast path (CodeInterpreter)
    QPointer<client::CodeRun> m_run;
    QPointer<client::CodeRun> m_start; // startKernel's run
    RunGate m_gate;
    int m_gateToken = 0;  // a run waiting at the gate; another number drops its answer
    bool m_gated = false; // a run waits at the gate
};

} // namespace lizard::notebook
