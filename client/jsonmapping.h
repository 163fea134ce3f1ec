#pragma once
// JSON ↔ the value types of types.h. Parsers are tolerant of absent optional fields and of
// unknown ones; a field of the wrong type (or a body that is not JSON) gives an ApiError of
// kind Protocol. Builders produce exactly the bodies the official SDK sends.

#include "client/activitypage.h"
#include "client/metricstypes.h"
#include "client/outcome.h"
#include "client/templatetypes.h"
#include "client/types.h"

#include <QByteArray>
#include <QList>
#include <QStringList>

namespace lizard::client {

// The parsers and builders of each resource are in jsonmapping_<resource>.cpp, beside the
// calls in lizardapi_<resource>.cpp; account, projects and sandboxes in jsonmapping.cpp.

// Parsers: `what` labels the error ("List projects"), httpStatus is kept in it.
Outcome<Project> parseProject(const QByteArray& body, const QString& what = {});
Outcome<QList<Project>> parseProjects(const QByteArray& body, const QString& what = {});
Outcome<SandboxInfo> parseSandbox(const QByteArray& body, const QString& what = {});
Outcome<QList<SandboxInfo>> parseSandboxes(const QByteArray& body, const QString& what = {});
Outcome<ExecResult> parseExecResult(const QByteArray& body, const QString& what = {});
Outcome<QList<ProcessInfo>> parseProcesses(const QByteArray& body, const QString& what = {});
Outcome<ProcessTree> parseProcessTree(const QByteArray& body, const QString& what = {});
Outcome<SandboxChanges> parseSandboxChanges(const QByteArray& body, const QString& what = {});
Outcome<FileEntry> parseFileEntry(const QByteArray& body, const QString& what = {});
Outcome<QList<FileEntry>> parseFileEntries(const QByteArray& body, const QString& what = {});
Outcome<WhoAmI> parseWhoAmI(const QByteArray& body, const QString& what = {});

// Lifecycle: snapshots, fork answers.
Outcome<Snapshot> parseSnapshot(const QByteArray& body, const QString& what = {});
Outcome<QList<Snapshot>> parseSnapshots(const QByteArray& body, const QString& what = {});
Outcome<QList<ForkEntry>> parseForkEntries(const QByteArray& body, const QString& what = {});
Outcome<LifecyclePolicy> parseLifecyclePolicy(const QByteArray& body, const QString& what = {});
// Volumes.
Outcome<Volume> parseVolume(const QByteArray& body, const QString& what = {});
Outcome<QList<Volume>> parseVolumes(const QByteArray& body, const QString& what = {});
Outcome<TemplatePool> parseTemplatePool(const QByteArray& body, const QString& what = {});
Outcome<QList<TemplatePool>> parseTemplatePools(const QByteArray& body, const QString& what = {});
// Templates built from recipes (jsonmapping_templates.cpp).
Outcome<QList<TemplateInfo>> parseTemplates(const QByteArray& body, const QString& what = {});
Outcome<TemplateInfo> parseTemplateInfo(const QByteArray& body, const QString& what = {});
Outcome<TemplateBuild> parseTemplateBuild(const QByteArray& body, const QString& what = {});
Outcome<RecipeCheck> parseRecipeCheck(const QByteArray& body, const QString& what = {});

// The activity log (jsonmapping_activity.cpp): a page of the JSON route, and one entry (an SSE
// event's data); an entry that is not an object with its seq, or has a field of the wrong type,
// is left out (nullopt), never an error.
Outcome<ActivityPage> parseActivityPage(const QByteArray& body, const QString& what = {});
std::optional<ActivityEntry> parseActivityEntry(const QByteArray& text);

// Builders.
QByteArray nameBody(const QString& name); // {"name": ...}
QByteArray createSandboxBody(const CreateSandboxRequest& request);
QByteArray timeoutBody(qint64 timeoutMs);
// cmd is a shell string (argv empty) or an argv array.
QByteArray execBody(const QString& shellCmd, const QStringList& argv, bool useArgv,
                    const ExecOptions& opts, bool pidEvent);
QByteArray signalBody(int pid, const QString& signal, bool tree = false);
// UTF-8 text when content is valid UTF-8 without NULs, else base64 with encoding "base64".
QByteArray writeFileBody(const QString& path, const QByteArray& content);
QByteArray pathBody(const QString& path);
QByteArray moveBody(const QString& from, const QString& to);
// Lifecycle.
QByteArray snapshotBody(const QString& name);     // {"name", "poolSize": 5}
QByteArray forkBody(int count, qint64 timeoutMs); // {"count", "timeoutMs"}
// PATCH .../lifecycle: the fields given (onTimeout empty, idlePauseMinutes < 0: not sent).
QByteArray lifecycleBody(const QString& onTimeout, int idlePauseMinutes);
QByteArray createVolumeBody(const QString& name, int sizeGb, bool getOrCreate);
QByteArray resizeVolumeBody(int sizeGb); // {"sizeGb"}

// The desktop calls: {running, width, height, url, viewOnlyUrl}. width and height are null
// until the desktop first started; both URLs are required (a viewer cannot work without them).
Outcome<DesktopInfo> parseDesktopInfo(const QByteArray& body, const QString& what = {});
// The answer of POST /api/sandboxes/{id}/expose/{port}: hostname, url and accessToken are
// required (a preview cannot work without them), port falls back to the requested one.
Outcome<ExposedPort> parseExposedPort(const QByteArray& body, int requestedPort,
                                      const QString& what = {});

// Schedules (jsonmapping_schedules.cpp): a schedule and a run need their id; lists are
// {"schedules": [...]} and {"runs": [...]}.
Outcome<SandboxSchedule> parseSchedule(const QByteArray& body, const QString& what = {});
Outcome<QList<SandboxSchedule>> parseSchedules(const QByteArray& body, const QString& what = {});
Outcome<QList<ScheduleRun>> parseScheduleRuns(const QByteArray& body, const QString& what = {});
// {name, every | cron + timezone, command, timeoutSeconds?}: an all-digit every goes as seconds.
QByteArray scheduleBody(const ScheduleSpec& spec);
QByteArray enabledBody(bool enabled); // {"enabled"}

// Terminals (jsonmapping_terminals.cpp): a terminal needs its terminalId; exitCode is null while
// it runs.
Outcome<TerminalInfo> parseTerminal(const QByteArray& body, const QString& what = {});
Outcome<QList<TerminalInfo>> parseTerminals(const QByteArray& body, const QString& what = {});
QByteArray createTerminalBody(const CreateTerminalRequest& request);
// {cols?, rows?, name?}: 0 cols/rows and no name are left out.
QByteArray updateTerminalBody(int cols, int rows, const std::optional<QString>& name);
QByteArray terminalSignalBody(const QString& signal); // {"signal"}
// The text frames of a terminal's WebSocket (client → server).
QByteArray terminalResizeMessage(int cols, int rows);
QByteArray terminalSignalMessage(const QString& signal);

// A text frame of a terminal's WebSocket (server → client). Unknown: not JSON, or a type this
// client does not know (skipped, never an error).
struct TerminalControl
{
    enum class Type { Unknown, Hello, Resize, Exit, Error };
    Type type = Type::Unknown;
    int cols = 0;
    int rows = 0;
    QString status;         // hello
    qint64 replayBytes = 0; // hello
    int exitCode = 0;       // exit
    QString code;           // error
    QString message;        // error
};
TerminalControl parseTerminalControl(const QByteArray& text);

// Resource metrics (jsonmapping_metrics.cpp): series of {t, value}, limits, events, latest.
Outcome<SandboxMetrics> parseSandboxMetrics(const QByteArray& body, const QString& what = {});
Outcome<ProjectMetrics> parseProjectMetrics(const QByteArray& body, const QString& what = {});

} // namespace lizard::client
