#pragma once
// One page of a sandbox's activity log (GET /api/sandboxes/{id}/activity, a lizard-local
// extension): its entries, read once here into typed values (server/api/DECISIONS.md "Activity
// log" has every kind and field), so no reader above the client parses JSON for them.

#include "client/coderun/runcodetypes.h"

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

namespace lizard::client {

// One of the runner's events that a runCode entry recorded, as far as a notebook shows them.
struct ActivityRunEvent
{
    enum class Type { Stdout, Stderr, Result, UpdateDisplay, ClearOutput, Error, Done, Other };
    Type type = Type::Other;
    QString text;                      // Stdout, Stderr
    ExecutionResult result;            // Result, UpdateDisplay
    ExecutionError error;              // Error
    std::optional<int> executionCount; // Done
};

struct ActivityEntry
{
    qint64 seq = 0;
    QString time; // ISO-8601 UTC, as the server wrote it
    QString kind; // exec, runCode, fileWrite, fileMove, fileDelete, create, pause, fork, ...
    bool housekeeping = false; // the app's own background command

    // exec (and the exec a runCode came in)
    QStringList argv;
    std::optional<QString> command; // the shell string, when cmd was one
    QString cwd;
    QString user;
    QStringList envNames;
    QString start; // ISO-8601, when it began
    QString end;
    qint64 durationMs = 0;
    std::optional<int> exitCode;
    bool timedOut = false;
    bool cancelled = false;       // the client hung up
    std::optional<QString> error; // it could not run: the error's code, with message
    QString message;
    qint64 stdoutBytes = 0;
    qint64 stderrBytes = 0;
    QString stdoutHead; // the first 64 KiB
    QString stderrHead;
    std::optional<QString> stdoutTail; // the last 64 KiB the head does not hold
    std::optional<QString> stderrTail;

    // runCode
    QString context;  // empty: the default context of `language`
    QString language; // as recorded (may be empty)
    QString code;
    QString via; // "serve" for a cell run through the runner's serve mode
    QList<ActivityRunEvent> events;
    bool eventsTruncated = false;

    // fileWrite, fileMove, fileDelete
    QString path;
    QString from;
    QString to;
    qint64 size = 0; // fileWrite's bytes

    // lifecycle
    QString templateName; // create
    QString sizeName;     // create's size ("small", ...)
    QString name;         // snapshot
    QString snapshotId;
    QStringList forks; // fork: the new ids
    int count = 0;     // fork, dropped
    int port = 0;      // expose, unexpose
    QString endAt;     // timeout, ISO-8601
    QString reason;    // kill
};

struct ActivityPage
{
    std::vector<ActivityEntry> entries; // entries the client could not read are left out
    qint64 lastSeq = 0;                 // pass as `since` next
    bool more = false;                  // the page was full: ask again at once
};

// argv as a JSON array (["ls","-la"]): how an exec without a shell string is shown, quoting kept.
QString argvJsonText(const QStringList& argv);

} // namespace lizard::client

Q_DECLARE_METATYPE(lizard::client::ActivityPage)
