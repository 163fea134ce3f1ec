#pragma once
// Value types of the Lizard API as the desktop app sees them. Field names follow the official
// SDK's types (its index.d.ts, pinned by tests/compat/package.json); parsing lives in
// jsonmapping.cpp.

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QMap>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <optional>

namespace lizard::client {

// An API failure, mapped as the official SDK maps it (see errormapping.h).
struct ApiError
{
    enum class Kind {
        Network,        // no HTTP answer (connection refused, DNS, TLS, reset)
        Cancelled,      // cancelled by the caller
        Authentication, // 401, 403
        Payment,        // 402
        NotFound,       // 404
        Conflict,       // 409
        Timeout,        // 408, 504, or the request's own timeout
        RateLimit,      // 429
        InvalidRequest, // 400, 413, 422
        Server,         // any other status
        Protocol,       // the answer could not be understood
    };
    Kind kind = Kind::Server;
    int httpStatus = 0;   // 0 when there was no HTTP answer
    QString code;         // UPPER_SNAKE code from the server, if any; with Kind::Network,
                          // CONNECTION_LOST: an exec's connection broke after it was made
                          // (the server may have taken it: it may or may not have run);
                          // CERTIFICATE_UNTRUSTED, CERTIFICATE_HOST_MISMATCH, CA_FILE_UNUSABLE,
                          // TLS_HANDSHAKE_FAILED: https:// could not be set up
    QString message;      // the server's message, or curl's
    int retryAfterS = -1; // 429: seconds to wait (retryAfterS or Retry-After)
    int limit = -1;       // 429: the limit that was hit
    int running = -1;     // 429: how many are running
    QString what;         // what the app tried, e.g. "Create sandbox"

    // "Create sandbox failed: 404 NOT_FOUND: sandbox sb_x not found" style text for the UI.
    QString toDisplayString() const;
    // What a call made while the app has no connection fails with.
    static ApiError notConnected(const QString& what);
};

struct Project
{
    QString id;
    QString name;
    QString slug;
    QString workspaceId;
    QDateTime createdAt; // invalid if absent
};

struct SandboxInfo
{
    QString sandboxId;
    QString templateName;
    QString projectId;
    QDateTime startedAt;
    QDateTime endAt; // invalid = no deadline
    QString status;  // running, paused, failed, stopped, deleted
    QString size;
    QString region;
    std::optional<QString> pauseError;
    double cpus = 0;
    int memoryMb = 0;
    // What really bounds the sandbox, when the server says (lizard-local's "limits" object; the
    // cloud may not send it): "cgroup", "rlimit", "none", or empty when not reported.
    QString limitsEnforcedBy;
    int pidsLimit = 0;       // tasks of the whole sandbox; 0: not reported
    int processMemoryMb = 0; // rlimit: memory of each process; 0: not reported
    // The writable layer's bound (diskGb, limits.disk): "image" (enforced by the file system)
    // or "watch" (lizard-local as an ordinary user measures it and stops growth once over);
    // 0 / empty: not bounded or not reported. diskOver: watched and over it now.
    int diskGb = 0;
    QString diskEnforcedBy;
    bool diskOver = false;
    bool internetAccess = true;
    // Only these hosts are reachable (names on ports 80 and 443, IPv4 addresses and ranges on
    // every port); empty: no allow-list (then internetAccess says all or nothing).
    QStringList allowedHosts;
    QMap<QString, QString> metadata;
    bool fromPool = false; // lizard-local: the create claimed a warm copy (started ahead)
    // lizard-local's lifecycle policies (empty / 0 from a server that does not send them):
    // onTimeout "kill" or "pause" (at endAt); idlePauseMinutes 0: never paused for idleness;
    // pausedBy "user", "idle", "timeout" or empty; timeoutMs the lifetime last given (0: none).
    QString onTimeout;
    int idlePauseMinutes = 0;
    QString pausedBy;
    qint64 timeoutMs = 0;
};

// A sandbox's lifecycle policies as GET/PATCH /api/sandboxes/{id}/lifecycle answer them
// (lizard-local's extension; the cloud answers 404).
struct LifecyclePolicy
{
    QString onTimeout;        // "kill" or "pause"
    int idlePauseMinutes = 0; // 0: never
    QString pausedBy;         // "user", "idle", "timeout"; empty unless paused
    qint64 timeoutMs = 0;     // the lifetime last given; 0: none
    QDateTime endAt;          // invalid: no deadline (none given, or paused at it)
};

// lizard-local's warm pool of a template (GET /api/templates): copies started ahead of the
// creates that claim them.
struct TemplatePool
{
    QString name;              // base, interpreter, desktop
    int poolSize = 0;          // copies it keeps (after the server's caps)
    int requestedPoolSize = 0; // the setting
    int readyCount = 0;        // idle copies now
    QString poolError;         // why it holds fewer than poolSize; empty when it fills normally
};

// The longest lifetime the API takes, in whole minutes (timeoutMs is at most 2^31-1 ms).
inline constexpr int kMaxLifetimeMinutes = 35791;

struct CreateSandboxRequest
{
    QString projectId;
    QString templateName = QStringLiteral("base");
    QString size;              // empty: server default
    qint64 timeoutMs = 300000; // 0: no deadline
    QMap<QString, QString> metadata;
    QMap<QString, QString> envs;
    bool internetAccess = true;
    QStringList allowedHosts; // not empty: only these, and no other network (internetAccess unused)
    // Lifecycle: start from a snapshot (template and size are then not sent), or
    // mount a volume at /workspace (by id or by name).
    QString snapshotId;
    QString volumeId;
    QString volumeName;
    // lizard-local's lifecycle policies, sent only when not the defaults (the cloud has none):
    // onTimeout "pause" (empty: "kill"), idlePauseMinutes > 0.
    QString onTimeout;
    int idlePauseMinutes = 0;
};

// A line of a command's output, as an exec stream delivers it.
enum class OutputStream { Stdout, Stderr };

struct OutputLine
{
    OutputStream stream;
    QString text; // one line, without its newline
};

struct ExecOptions
{
    QMap<QString, QString> envs;
    QString user;    // empty: server default (root)
    QString workdir; // empty: the user's home
    int timeoutMs = 60000;
    // The app's own background command (a port scan): lizard-local's activity log marks it as
    // such and keeps no output (X-Lizard-Housekeeping; other servers ignore the header).
    bool housekeeping = false;
};

struct ExecResult
{
    QString stdoutText;
    QString stderrText;
    int exitCode = 0;
    bool truncated = false;
};

struct ProcessInfo
{
    int pid = 0;
    QStringList cmd;
    QString command;
    QString cwd;
    QDateTime startedAt;
};

// One process of a sandbox's process tree (lizard-local's local extension).
struct ProcessTreeEntry
{
    int pid = 0;
    int ppid = 0;
    int uid = -1;
    QString user;
    QString state; // the kernel's one letter: R running, S sleeping, D disk, Z zombie, T stopped
    QString name;  // the kernel's short name (comm)
    QString command;
    QStringList cmd;
    qint64 cpuMs = 0; // user + system time so far
    qint64 rssBytes = 0;
    int threads = 0;
    QDateTime startedAt;
    bool exec = false;   // started by exec (the SDK's process list)
    bool system = false; // PID 1, the sandbox itself: not to be signalled
};

struct ProcessTree
{
    QList<ProcessTreeEntry> processes;
    qint64 sampledAtMs = 0;
    bool truncated = false;
};

// One path a sandbox changed against its template (lizard-local's GET .../changes).
struct FileChange
{
    QString path;
    QString kind; // added, modified, deleted
    QString type; // file, dir, symlink, other (deleted: what the template had)
    QString was;  // a modified path that changed type: what it was; else empty
    qint64 size = 0;
    int mode = 0;
    qint64 mtimeNs = 0; // its modification time (deleted: the template's); 0 when not said
};

struct SandboxChanges
{
    QString against;   // "template", "snapshot" or "sandbox"
    QString againstId; // the snapshot's or the sandbox's id
    QString templateName;
    bool truncated = false;
    QList<FileChange> changes;      // a directory before what is below it
    QList<QStringList> notCompared; // [path, reason]: what the list cannot see
};

// A schedule of a sandbox (the official SDK's SandboxSchedule, command kind): every N seconds
// or a cron expression in an IANA time zone.
struct SandboxSchedule
{
    QString id;
    QString sandboxId;
    QString name;
    QString every;           // as given: "5m", "90s"…; empty for a cron schedule
    qint64 everySeconds = 0; // 0 for a cron schedule
    QString cron;
    QString timezone;
    QString kind; // "command" (lizard-local); "prompt" on the cloud
    QString command;
    QString prompt;
    int timeoutSeconds = 0;
    bool enabled = true;
    QString disabledReason;
    QDateTime nextRunAt; // invalid: none (switched off)
    bool running = false;
    QDateTime lastRunAt;
    QString lastStatus; // succeeded, failed, timeout, interrupted; empty before the first run
    int consecutiveFailures = 0;
    qint64 skippedCount = 0;
    QDateTime createdAt;
};

// What the Add and Edit dialogs send (createSchedule, updateSchedule). An update sends every
// field, so a schedule switched from every to cron loses its interval.
struct ScheduleSpec
{
    QString name;
    QString every; // either every ("5m", "90", "1h30m") or cron
    QString cron;
    QString timezone; // cron only; empty: UTC
    QString command;
    int timeoutSeconds = 0; // 0: the server's default
};

// One run of a schedule (SandboxScheduleRun).
struct ScheduleRun
{
    QString id;
    QString scheduleId;
    QString status;     // running, succeeded, failed, timeout, interrupted
    bool woke = false;  // the run woke a paused sandbox
    bool slept = false; // and put it back to sleep
    QDateTime startedAt;
    QDateTime endedAt;
    bool finished = false;
    qint64 durationMs = -1; // -1 while running
    std::optional<int> exitCode;
    QString output;
    QString error;
};

struct FileEntry
{
    QString name;
    QString path;
    QString type; // file, dir, symlink
    qint64 size = 0;
    QString mode;        // "0644"
    QString permissions; // "-rw-r--r--"
    QString owner;
    QString group;
    QDateTime modifiedAt;
    QString symlinkTarget;
};

// fs.watch: one change reported by GET .../files/watch/events (the SDK's FsEvent). type is
// create, write, remove, rename or chmod; lizard-local adds "overflow" (events were lost
// since the last drain: rescan the watched directory, path).
struct FsEvent
{
    QString type;
    QString name;
    QString path;
};

// Ports: an exposed sandbox port, as POST /expose/{port} answers it.
struct ExposedPort
{
    QString hostname;    // "127.x.y.z:PORT" for lizard-local, a DNS name in the cloud (no scheme)
    QString url;         // browser URL carrying ?lizard_token=…
    int port = 0;        // the sandbox's port
    QString accessToken; // X-Lizard-Access-Token for API clients
};

// A desktop sandbox's screen (GET/POST /api/sandboxes/{id}/desktop). Both URLs are viewer
// pages that carry credentials: url gives full control, viewOnlyUrl only shows the screen.
struct DesktopInfo
{
    bool running = false;
    int width = 0;  // 0: never started
    int height = 0; // 0: never started
    QString url;
    QString viewOnlyUrl;
};

struct WhoAmI
{
    QString id;
    QString name;
    QString email;
    QString workspaceId;
    QString server; // the answer's Server header ("lizard-local/0.1.0"); empty if none was sent
};

// --- Lifecycle: snapshots, fork, volumes ---

struct Snapshot
{
    QString id;
    QString name;
    QString projectId;
    QString workspaceId;
    QString region;
    QString sourceSandboxId;
    QString status; // building, warming, ready, paused, suspended, failed
    QString error;  // why it failed, empty otherwise
    QString createdBy;
    int poolSize = 0;
    int readyCount = 0;
    double cpus = 0;
    int memoryMb = 0;
    QDateTime createdAt;   // invalid if absent
    qint64 sizeBytes = -1; // -1: the server did not say (the cloud does not)
    std::optional<bool> sourceVolume;
};

// One copy of a fork: the new sandbox, or why it could not be made (with the limit details of
// a 429 when the server gives them, -1 otherwise).
struct ForkEntry
{
    std::optional<SandboxInfo> sandbox;
    QString error;
    QString code;
    int httpStatus = 0;
    int limit = -1;
    int running = -1;
    int retryAfterS = -1;
};

struct Volume
{
    QString id;
    QString projectId;
    QString name;
    int sizeGb = 0;
    QString region;
    QString status;
    QString attachedTo; // sandbox id holding it, empty when free
    QDateTime createdAt;
    std::optional<bool> sizeEnforced;
};

// --- Terminals: a lizard-local extension (PTY sessions; the cloud answers 404) ---

// A terminal of a sandbox (GET /api/sandboxes/{id}/terminals/{tid}).
struct TerminalInfo
{
    QString terminalId; // "t-…"
    QString sandboxId;
    QString name;
    QStringList cmd; // argv as started
    QString user;
    QString cwd;
    int cols = 0;
    int rows = 0;
    int pid = 0;
    QString status;              // running, exited
    std::optional<int> exitCode; // none while running
    QDateTime createdAt;
    QDateTime endedAt; // invalid while running
    int clients = 0;   // attached connections
    QString createdBy; // the key's name

    bool isRunning() const { return status == QLatin1String("running"); }
};

// POST /api/sandboxes/{id}/terminals. Empty or 0 fields are left to the server (the user's
// login shell, user "user", 80×24).
struct CreateTerminalRequest
{
    QString shellCmd; // run by /bin/sh -c; ignored when argv is not empty
    QStringList argv;
    QString user;
    QString cwd;
    QMap<QString, QString> envs;
    QString name;
    int cols = 0; // 1..1000
    int rows = 0; // 1..500
};

// An API key of the account (GET /api/account/api-keys). The full key is only in the answer
// of its creation (CreatedApiKey).
struct ApiKey
{
    QString id;
    QString name;
    QString preview;        // "liz_ab12…": never the whole key
    QStringList scopes;     // display names ("Read-only", a workspace's name); empty: full access
    bool readOnly = false;  // lizard-local's {type: "access", id: "read-only"}
    bool bootstrap = false; // lizard-local's key-file key: cannot be revoked through the API
    QDateTime createdAt;
    QDateTime lastUsedAt; // invalid: never used
};

struct CreatedApiKey
{
    ApiKey info;
    QString key; // the whole secret, shown once
};

// How to reach a Lizard API: the cloud or a lizard-local.
struct Endpoint
{
    QString baseUrl; // e.g. "https://lizard.build" or "http://127.0.0.1:7411"
    QString apiKey;
    // The user confirmed sending the key over plain http:// to a host that is not this
    // computer. Without it such a key is never sent (see keytransport.h).
    bool keyInClearConfirmed = false;
    // PEM file of an extra certificate authority to trust for https:// (a company's own, as
    // TLS-inspecting proxies use). Empty: the environment's LIZARD_CA_BUNDLE, else none.
    QString caFile;
};

} // namespace lizard::client

Q_DECLARE_METATYPE(lizard::client::ExposedPort)
Q_DECLARE_METATYPE(lizard::client::ApiError)
Q_DECLARE_METATYPE(lizard::client::SandboxInfo)
Q_DECLARE_METATYPE(lizard::client::Snapshot)
Q_DECLARE_METATYPE(lizard::client::Volume)
Q_DECLARE_METATYPE(lizard::client::TerminalInfo)
