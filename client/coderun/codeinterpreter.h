#pragma once
// runCode for one sandbox through the public API only (exec + files), so the same path works
// against lizard-local and the cloud. The runner (resources/runner/lizard_runner/, bundled into
// one file at build time and embedded as :/lizard/runner/lizard_runner.py) runs inside the sandbox.
//
// Fast path: one long streaming exec runs the runner in `serve` mode; requests are files written
// through the files API into its inbox, answers come back on the stream, demultiplexed by `req`.
// Before the exec's 600 s cap the runner says `expiring` and the next serve process (with a
// fresh inbox) takes over. Whenever serve is unavailable (it does not start, its stream dies),
// requests go through exec-per-run (`python3 -c <runner> <b64 json>`) and serve is retried later.
// Requests in flight when a stream dies fail (they may or may not have run); none is re-sent.
//
// Callbacks follow LizardApi's rules: they run from the event loop, never inside the call, and
// not at all once `ctx` is destroyed (nullptr: always).

#include "client/coderun/coderun.h"
#include "client/coderun/runcodetypes.h"
#include "client/coderun/variablelisting.h"
#include "client/outcome.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <functional>
#include <nlohmann/json.hpp>

namespace lizard::client {

class JsonReader;
class LizardApi;
class ServeChannel;

class CodeInterpreter : public QObject
{
    Q_OBJECT
public:
    enum class Transport { Serve, ExecPerRun };
    Q_ENUM(Transport)

    // `api` must outlive the interpreter.
    CodeInterpreter(LizardApi* api, QString sandboxId, QObject* parent = nullptr);
    ~CodeInterpreter() override; // closes the serve stream (the runner then exits; kernels stay)

    QString sandboxId() const { return m_sandboxId; }
    LizardApi* api() const { return m_api; }

    // Off: every request goes through exec-per-run (tests; hosts where streams are cut).
    void setFastPathEnabled(bool enabled);
    bool fastPathEnabled() const { return m_fastPathEnabled; }
    // How the next request will travel (Serve only once a serve process said it is ready).
    Transport currentTransport() const;
    // Starts the serve process now instead of with the first request (warms the path).
    void warmUp();
    // How long each serve process takes requests before the next one takes over (s, at most
    // 540: the exec API caps a command at 600 s, so a serve process can give what it accepted
    // 600 - lifetime s; runs with a longer timeout go exec-per-run). Tests shorten it.
    void setServeLifetime(int seconds);
    int serveLifetime() const { return m_serveLifetimeS; }

    CodeRun* runCode(const QString& code, const RunCodeOptions& options = {});
    // Starts the kernel of a context (contextId empty: the default context of `language`) with a
    // run of no code, which uses no execution count, so that the first cell answers at once. The
    // state reads Starting until it is Idle, or Unknown again when the kernel could not start
    // (the first run then says why). The run is deleted once it ended.
    CodeRun* startKernel(const QString& contextId, const QString& language);

    template <class T> using Done = std::function<void(Outcome<T>)>;

    void createContext(const QString& language, const QString& cwd, QObject* ctx,
                       Done<CodeContext> done);
    // Every context made with createContext, by this app or anyone else (e.g. the official SDK);
    // default-<language> contexts are not listed (as with the SDK).
    void listContexts(QObject* ctx, Done<QList<CodeContext>> done);
    void restartContext(const QString& contextId, QObject* ctx, Done<Unit> done);
    void deleteContext(const QString& contextId, QObject* ctx, Done<Unit> done);
    // true when something was running and got SIGINT.
    void interrupt(const QString& contextId, QObject* ctx, Done<bool> done);
    // Every live Python context saves its variables into its own directory; a kernel that starts
    // fresh there later (a fork, a restored snapshot) loads them once. Call before forking.
    void saveAllVariables(QObject* ctx, Done<QList<ContextVariables>> done);

    // The kernel's completions / help for `code` at `cursor` (a QString index). `contextId` empty:
    // the default context of `language`. A context without a live kernel answers with nothing.
    void complete(const QString& contextId, const QString& language, const QString& code,
                  int cursor, QObject* ctx, Done<Completions> done);
    void inspect(const QString& contextId, const QString& language, const QString& code, int cursor,
                 QObject* ctx, Done<Inspection> done);
    // The variable explorer's listing (silent in the kernel: the execution count does not move);
    // `name` non-empty: that one variable with its full repr. Never starts a kernel.
    void listVariables(const QString& contextId, const QString& language, const QString& name,
                       QObject* ctx, Done<VariableListing> done);

    // Rows of a table a Python kernel displayed (application/vnd.lizard.table+json) in context
    // `contextId`. A gone kernel or handle, or malformed rows, is an error.
    void tableRows(const QString& contextId, const TableRowsQuery& query, QObject* ctx,
                   Done<TableRows> done);
    // The variable `name` (a pandas DataFrame or Series) as a table: the runner's
    // table_for_variable answer, the JSON fields of a table output (what a notebook stores and
    // notebook/tabledata.h reads) with a handle for tableRows. `contextId` empty: the default
    // context of `language`. Never starts a kernel.
    void tableForVariable(const QString& contextId, const QString& language, const QString& name,
                          QObject* ctx, Done<nlohmann::json> done);

    KernelState kernelState(const QString& contextId) const
    {
        return m_states.value(contextId, KernelState::Unknown);
    }

signals:
    void kernelStateChanged(const QString& contextId, lizard::client::KernelState state);
    void contextsChanged(); // a context was created, deleted or restarted through this object
    void transportChanged(lizard::client::CodeInterpreter::Transport transport);

private:
    RunnerCall* send(nlohmann::json request);
    void sendOneShot(RunnerCall* call);
    void ensureServe();
    void onServeReady();
    void onServeExpiring();
    void onServeDied(const QString& why);
    void flushWaiting();
    void setState(const QString& contextId, KernelState state);
    void trackRun(CodeRun* run);
    template <class T>
    void action(nlohmann::json request, QObject* ctx, Done<T> done,
                std::function<Outcome<T>(const JsonReader&)> map);

    LizardApi* m_api;
    QString m_sandboxId;
    QByteArray m_source; // the runner's source
    bool m_fastPathEnabled = true;
    QPointer<ServeChannel> m_serve;        // ready or starting
    QPointer<ServeChannel> m_retiring;     // expiring: answers what it has, takes nothing new
    QList<QPointer<RunnerCall>> m_waiting; // for a starting serve
    qint64 m_serveRetryAtMs = 0;           // after a failure, exec-per-run until then
    int m_serveLifetimeS;
    QHash<QString, KernelState> m_states;
};

} // namespace lizard::client
