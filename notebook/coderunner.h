#pragma once
// What the run queue sends code to. The client's code runner (runCode over exec + SSE)
// implements it; tests use a scripted one. One run at a time.
//
// Contract: after run(), the runner emits any number of streamReceived / resultReceived /
// errorReceived, then exactly one of done (the code ran; errors in the code arrive as
// errorReceived before it) or failed (the run could not happen or broke off: network, server,
// sandbox gone). interrupt() asks the running code to stop; the run still ends with done
// or failed. Signals may be emitted from within run() or later from the event loop.

#include "client/coderun/runcodetypes.h"
#include "notebook/output.h"
#include "notebook/variablelist.h"

#include <QHash>
#include <QObject>
#include <functional>
#include <optional>

namespace lizard::notebook {

// The kernel's completions for code at a cursor: matches replace code[start, end). Positions
// are QString indexes into the code that was asked about.
struct Completion
{
    QString text;
    QString type; // function, module, class, instance, keyword, ... or "" when unknown
};
struct CompletionReply
{
    int start = 0;
    int end = 0;
    QList<Completion> matches;
};

// Rows [start, start + count) of a table a kernel displayed (notebook/tabledata.h), sorted by
// `column` (-1: the index) when set.
struct TableRowsRequest
{
    QString context; // the code context whose kernel showed the table
    QString handle;
    qint64 start = 0;
    int count = 100;
    std::optional<int> column;
    bool ascending = true;
};

class CodeRunner : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    ~CodeRunner() override;

    virtual void run(const QString& code, const QHash<QString, QString>& envs) = 0;
    virtual void interrupt() = 0;

    // Completion and help from the kernel's state (Tab, Shift+Tab), asynchronous: done runs
    // later from the event loop (never inside the call, never once ctx is gone) with nullopt
    // when there is no answer (no kernel state, an error). Runners without a kernel keep these.
    using CompleteDone = std::function<void(std::optional<CompletionReply>)>;
    using InspectDone = std::function<void(std::optional<QString> ansiText)>;
    virtual void complete(const QString& code, int cursor, QObject* ctx, CompleteDone done);
    virtual void inspect(const QString& code, int cursor, QObject* ctx, InspectDone done);
    // The variable explorer's listing, asked silently (the execution count does not move); `name`
    // non-empty: that one variable with its full repr. Same rules for done; runners without a
    // kernel answer with kernel = false.
    using VariablesDone = std::function<void(VariableList)>;
    virtual void listVariables(const QString& name, QObject* ctx, VariablesDone done);
    // The rows or, when there are none, why (error non-empty): the kernel is gone, the handle
    // unknown, the answer malformed. Same callback rules as complete().
    using TableRowsDone = std::function<void(client::TableRows rows, QString error)>;
    virtual void tableRows(const TableRowsRequest& request, QObject* ctx, TableRowsDone done);
    // The variable `name` (a pandas DataFrame or Series) as a table (the runner's
    // table_for_variable reply: a table output's fields, with a handle for tableRows) or why
    // not. Same callback rules as complete().
    using TableDone = std::function<void(nlohmann::json table, QString error)>;
    virtual void tableForVariable(const QString& name, QObject* ctx, TableDone done);

signals:
    void streamReceived(const lizard::notebook::StreamOutput& output);
    void resultReceived(const lizard::notebook::RichOutput& output);
    void errorReceived(const lizard::notebook::ErrorOutput& output);
    // update_display_data: every output shown with this display id, in any cell, now shows
    // output's data and metadata.
    void displayUpdated(const QString& displayId, const lizard::notebook::RichOutput& output);
    void done(std::optional<int> executionCount); // the runner's "done" event
    void failed(const QString& message);
};

} // namespace lizard::notebook
