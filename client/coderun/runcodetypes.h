#pragma once
// Value types of runCode (the code interpreter), as the official SDK's Execution and CodeContext,
// plus what the app needs beyond it: every MIME type of a result, ANSI tracebacks, kernel state.
// The runner's events are described in resources/runner/PROTOCOL.md.

#include <QHash>
#include <QList>
#include <QMap>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVariant>
#include <nlohmann/json.hpp>
#include <optional>

namespace lizard::client {

// A context: a Python kernel (state kept between runs) or a working directory (bash, javascript).
struct CodeContext
{
    QString id;       // "ctx-<16 hex>" or "default-<language>"
    QString language; // python, javascript, bash
    QString cwd;
    bool operator==(const CodeContext&) const = default;
};

struct RunCodeOptions
{
    QString contextId;                           // empty: the default context of `language`
    QString language = QStringLiteral("python"); // used when contextId is empty
    QMap<QString, QString> envs;                 // set for this run only
    double timeoutS = 60; // Python: interrupted (state kept) and TimeoutError
    QString cwd;          // only when the default context is first made
};

// One display: every MIME type the kernel sent (images base64, application/json as JSON text).
struct ExecutionResult
{
    QString mime;                      // the best type, as the SDK picks it
    QMap<QString, QString> bundle;     // MIME type -> data (always holds `mime`)
    nlohmann::json metadata;           // null, or e.g. {"image/png": {"width": 640, "height": 480}}
    bool isDisplay = true;             // display_data; false for execute_result
    std::optional<int> executionCount; // execute_result only
    QString displayId;                 // set when the display can be updated later
    QString data() const { return bundle.value(mime); }
};

struct ExecutionError
{
    QString name; // "ZeroDivisionError", "TimeoutError", "KernelDied", "ExitError", ...
    QString message;
    QString traceback;     // without ANSI colours
    QString tracebackAnsi; // with them (Python); equals traceback when there were none
};

// The whole of a finished run, like the SDK's Execution.
struct Execution
{
    QString stdoutText;
    QString stderrText;
    QList<ExecutionResult> results;
    std::optional<ExecutionError> error;
    int executionCount = 0;
    QStringList notices; // e.g. "started a fresh kernel" (ours; the SDK has none)

    bool success() const { return !error.has_value(); }
    // The text/plain of the execute_result (the value of the last expression), if any.
    QString text() const;
    // Results that hold `mime`.
    QList<ExecutionResult> resultsWith(const QString& mime) const;
};

// What the runner reported after saving or loading variables.
struct VariablesReport
{
    QStringList names;                      // saved or loaded
    QList<QPair<QString, QString>> skipped; // name, reason (not serialisable, ...)
};

// One context's part of saveAllVariables().
struct ContextVariables
{
    QString contextId;
    VariablesReport report;
    QString error; // non-empty: nothing was saved for this context
};

// A kernel's completions (complete_request). Positions are QString (UTF-16) indexes into the
// code that was sent; the wire's code points are converted by CodeInterpreter.
struct CompletionMatch
{
    QString text;
    QString type; // function, module, class, instance, keyword, ... ("" when the kernel gave none)
    QString signature;
};
struct Completions
{
    int cursorStart = 0;
    int cursorEnd = 0;
    QList<CompletionMatch> matches;
};

// A kernel's help for the name at the cursor (inspect_request): signature and docstring.
struct Inspection
{
    bool found = false;
    QString text;     // plain
    QString textAnsi; // with the kernel's ANSI colours
};

// Rows [start, start + count) of a table a Python kernel displayed, sorted by `column` (-1: the
// index) when set: the runner's table_rows request without its action and context.
struct TableRowsQuery
{
    QString handle;
    qint64 start = 0;
    int count = 100;
    std::optional<int> column;
    bool ascending = true;
};

// A page of such a table (the runner's table_rows answer, and the first rows of a table output).
// Each value is as the runner sent it: null (an invalid QVariant), bool, qint64, quint64, double
// or QString (anything else as its JSON text).
struct TableRows
{
    QString handle;
    qint64 start = 0;
    std::optional<qint64> totalRows; // the frame's rows, when the answer says
    QVariantList index;              // one per row
    QList<QVariantList> columns;     // one list per column, each one per row
};

// The index_values, data, start, rows and handle of `value`; nullopt with *error saying what is
// wrong ("\"data\" must be a list of columns") when they are malformed.
std::optional<TableRows> tableRowsFromJson(const nlohmann::json& value, QString* error);
// One table value as TableRows holds it.
QVariant tableValue(const nlohmann::json& value);

// What the UI shows for a context's kernel.
enum class KernelState {
    Unknown,  // nothing run yet from this app
    Starting, // a (fresh) kernel is being started
    Idle,
    Busy,
    Dead, // the kernel died; the next run starts a fresh one
};

QString kernelStateName(KernelState state);

} // namespace lizard::client

Q_DECLARE_METATYPE(lizard::client::ExecutionResult)
Q_DECLARE_METATYPE(lizard::client::ExecutionError)
Q_DECLARE_METATYPE(lizard::client::Execution)
Q_DECLARE_METATYPE(lizard::client::KernelState)
