#pragma once
// The Lizard HTTP API for the desktop app: every call is asynchronous (libcurl multi driven
// by the Qt event loop, see curlmulti.h), cancellable, and reports on the thread that made it.
// The same code talks to https://lizard.build and to a lizard-local.

// The widgets reach the server only through the models and sessions that own their calls
// (models/, notebook/): a ui/ file may hold a LizardApi* to hand on, never call it.
// cmake/LayerRules.cmake defines LIZARD_LAYER_UI for every ui/ target.
#ifdef LIZARD_LAYER_UI
#error                                                                                             \
    "client/lizardapi.h reached from ui/: call a model, action or session in models/ or notebook/ instead"
#endif

#include "client/activitypage.h"
#include "client/metricstypes.h"
#include "client/outcome.h"
#include "client/pendingcall.h"
#include "client/templatetypes.h"
#include "client/types.h"

#include <QObject>
#include <QPointer>
#include <QSize>
#include <functional>
#include <memory>

namespace lizard::client {

class CurlMulti;
class ProxyRoute;
class ActivityStream;
class LogStream;
class TemplateBuildStream;

// A streaming exec (SSE). Lines arrive in batches, in order, as the server sends them.
// started (if the server reports the pid) comes first, then output batches, then exactly one of
// exited or failed. cancel() closes the connection; failed(Cancelled) follows from the event loop.
// Slots may delete the stream.
class ExecStream : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    // Ends the stream; the server then stops the command.
    virtual void cancel() = 0;
    // In a slot of exited: the command ran out of its timeoutMs and was killed (the exit code
    // is then 124, which a command may also return by itself).
    bool timedOut() const { return m_timedOut; }
    // In a slot of exited: the sandbox's OOM killer killed it (lizard-local says so; exit 137).
    bool oomKilled() const { return m_oomKilled; }
signals:
    void started(int pid);
    void output(const QList<lizard::client::OutputLine>& lines);
    void exited(int exitCode);
    void failed(const lizard::client::ApiError& error);

protected:
    bool m_timedOut = false;
    bool m_oomKilled = false;
};

class WebSocket;

// One attached terminal (LizardApi::attachTerminal): a WebSocket to
// /api/sandboxes/{id}/terminals/{tid}/attach. attached() comes first (the server's hello), then
// output: the replay of recent output (replayBytes of it), then live. Ends with exactly one of
// exited() (the program ended; the server then closes) or disconnected() (could not attach, e.g.
// 401/404/429, or the connection broke); nothing after detach(). errorMessage() reports a
// control frame the server refused (the link stays). Slots may delete the link.
class TerminalLink : public QObject
{
    Q_OBJECT
public:
    ~TerminalLink() override;

    QString sandboxId() const { return m_sandboxId; }
    QString terminalId() const { return m_terminalId; }
    bool isAttached() const { return m_attached; }

    // Keystrokes and pasted text, in binary frames of at most 64 KiB. False: not attached.
    bool sendInput(const QByteArray& bytes);
    bool resize(int cols, int rows);
    bool sendSignal(const QString& signal); // "SIGINT", "INT" or "2"
    // Closes the connection (the terminal keeps running on the server); no signal follows.
    void detach();
    // Input queued and not yet taken by the connection.
    qint64 bufferedAmount() const;
    // Output flow control: while paused no output is read (the server then pauses the program).
    void pauseOutput(bool paused);

    // Test only: breaks the connection as a network failure would (disconnected() follows).
    void dropConnectionForTest();

signals:
    void attached(int cols, int rows, const QString& status, qint64 replayBytes);
    void output(const QByteArray& bytes);
    void resized(int cols, int rows);
    void exited(int code);
    void errorMessage(const QString& code, const QString& message);
    void disconnected(const lizard::client::ApiError& error);

private:
    friend class LizardApi;
    TerminalLink(QString sandboxId, QString terminalId, QObject* parent = nullptr);
    void onText(const QByteArray& text);
    void onClosed(int code, const QString& reason);
    void onFailed(const ApiError& error);

    QString m_sandboxId;
    QString m_terminalId;
    WebSocket* m_socket = nullptr;
    bool m_attached = false;
    bool m_ended = false; // exited, disconnected or detached: nothing more is emitted
};

// One object per connection. Its calls are grouped by resource below; a resource's calls are
// in lizardapi_<resource>.cpp and their JSON in jsonmapping_<resource>.cpp (client/CMakeLists.txt).
class LizardApi : public QObject
{
    Q_OBJECT
public:
    explicit LizardApi(Endpoint endpoint, QObject* parent = nullptr);
    // Calls and streams still running end with ApiError::Kind::Cancelled (from the event loop).
    ~LizardApi() override;

    const Endpoint& endpoint() const { return m_endpoint; }
    // Where the port proxy's addresses must be opened first (client/proxyroute.h); none by
    // default. Not owned.
    void setProxyRoute(ProxyRoute* route);

    template <class T> using Done = client::Done<T>;

    // Account
    PendingCall* whoAmI(QObject* ctx, Done<WhoAmI> done);

    // Projects
    PendingCall* listProjects(QObject* ctx, Done<QList<Project>> done);
    PendingCall* createProject(const QString& name, QObject* ctx, Done<Project> done);
    PendingCall* renameProject(const QString& id, const QString& name, QObject* ctx,
                               Done<Project> done);
    PendingCall* deleteProject(const QString& id, QObject* ctx, Done<Unit> done);

    // Sandboxes
    PendingCall* listSandboxes(const QString& projectId, QObject* ctx,
                               Done<QList<SandboxInfo>> done);
    PendingCall* getSandbox(const QString& id, QObject* ctx, Done<SandboxInfo> done);
    PendingCall* createSandbox(const CreateSandboxRequest& req, QObject* ctx,
                               Done<SandboxInfo> done);
    PendingCall* killSandbox(const QString& id, QObject* ctx, Done<Unit> done);
    PendingCall* setSandboxTimeout(const QString& id, qint64 timeoutMs, QObject* ctx,
                                   Done<Unit> done);

    // Processes
    PendingCall* exec(const QString& sandboxId, const QString& shellCmd, const ExecOptions& opts,
                      QObject* ctx, Done<ExecResult> done);
    PendingCall* execArgv(const QString& sandboxId, const QStringList& argv,
                          const ExecOptions& opts, QObject* ctx, Done<ExecResult> done);
    // Streams a shell command; the returned object is owned by the caller (parent it).
    ExecStream* execStream(const QString& sandboxId, const QString& shellCmd,
                           const ExecOptions& opts);
    ExecStream* execStreamArgv(const QString& sandboxId, const QStringList& argv,
                               const ExecOptions& opts);
    PendingCall* listProcesses(const QString& sandboxId, QObject* ctx,
                               Done<QList<ProcessInfo>> done);
    PendingCall* signalProcess(const QString& sandboxId, int pid, const QString& signal,
                               QObject* ctx, Done<Unit> done);
    // Every process of the sandbox, and a signal to any of them (`tree`: with its descendants);
    // lizard-local's extension: the cloud answers 404.
    PendingCall* processTree(const QString& sandboxId, QObject* ctx, Done<ProcessTree> done);
    // What the sandbox changed against its template, or against `against` (a snapshot's or
    // another sandbox's id, of the same template); `exclude`: fnmatch patterns (a name
    // without a slash drops every such path component). lizard-local only.
    PendingCall* sandboxChanges(const QString& sandboxId, const QStringList& exclude, QObject* ctx,
                                Done<SandboxChanges> done, const QString& against = {});
    // The template's version of a file the sandbox changed or deleted; with `against` (a
    // snapshot's or another sandbox's id) that one's version instead.
    PendingCall* templateOriginal(const QString& sandboxId, const QString& path, QObject* ctx,
                                  Done<QByteArray> done, const QString& against = {});
    // The sandbox's changes against its template as a tar in the form of an image layer
    // (deletions as ".wh.<name>" files), streamed into `localPath` as downloadFile does.
    PendingCall* downloadChangesArchive(const QString& sandboxId, const QStringList& exclude,
                                        const QString& localPath, QObject* ctx,
                                        std::function<void(qint64, qint64)> progress,
                                        Done<qint64> done);
    PendingCall* signalTreeProcess(const QString& sandboxId, int pid, const QString& signal,
                                   bool tree, QObject* ctx, Done<Unit> done);

    // Schedules of a sandbox (the official SDK's calls; lizard-local runs the command kind).
    // runSchedule starts a run now (and switches the schedule on); runs are newest first, the
    // one in progress with its output so far.
    PendingCall* listSchedules(const QString& sandboxId, QObject* ctx,
                               Done<QList<SandboxSchedule>> done);
    PendingCall* createSchedule(const QString& sandboxId, const ScheduleSpec& spec, QObject* ctx,
                                Done<SandboxSchedule> done);
    PendingCall* updateSchedule(const QString& scheduleId, const ScheduleSpec& spec, QObject* ctx,
                                Done<SandboxSchedule> done);
    PendingCall* setScheduleEnabled(const QString& scheduleId, bool enabled, QObject* ctx,
                                    Done<SandboxSchedule> done);
    PendingCall* deleteSchedule(const QString& scheduleId, QObject* ctx, Done<Unit> done);
    PendingCall* runSchedule(const QString& scheduleId, QObject* ctx, Done<SandboxSchedule> done);
    PendingCall* scheduleRuns(const QString& scheduleId, int limit, QObject* ctx,
                              Done<QList<ScheduleRun>> done);
    // Resource metrics of a sandbox over `range` (10m, 1h, 6h, 24h; empty: the server's 1h) and
    // the latest figures of a project's running sandboxes; lizard-local's extension: the cloud
    // answers 404.
    PendingCall* sandboxMetrics(const QString& sandboxId, const QString& range, QObject* ctx,
                                Done<SandboxMetrics> done);
    PendingCall* projectMetrics(const QString& projectId, QObject* ctx, Done<ProjectMetrics> done);

    // Files
    PendingCall* readFile(const QString& sandboxId, const QString& path, QObject* ctx,
                          Done<QByteArray> done);
    PendingCall* writeFile(const QString& sandboxId, const QString& path, const QByteArray& content,
                           QObject* ctx, Done<Unit> done);
    PendingCall* removeFile(const QString& sandboxId, const QString& path, QObject* ctx,
                            Done<Unit> done);
    PendingCall* listDir(const QString& sandboxId, const QString& path, QObject* ctx,
                         Done<QList<FileEntry>> done);
    PendingCall* statFile(const QString& sandboxId, const QString& path, QObject* ctx,
                          Done<FileEntry> done);
    PendingCall* moveFile(const QString& sandboxId, const QString& from, const QString& to,
                          QObject* ctx, Done<Unit> done);

    // File watching: a lizard-local extension the cloud answers
    // 501. watchEvents drains what happened since the previous call.
    PendingCall* watchFiles(const QString& sandboxId, const QString& path, bool recursive,
                            QObject* ctx, Done<QString> done);
    PendingCall* watchEvents(const QString& sandboxId, const QString& watcherId, QObject* ctx,
                             Done<QList<FsEvent>> done);
    PendingCall* unwatchFiles(const QString& sandboxId, const QString& watcherId, QObject* ctx,
                              Done<Unit> done);

    // The sandbox's system log (client/logstream.h): the last `tail` lines
    // (0..10000), then new ones live. The returned object is owned by the caller (parent it).
    LogStream* followLogs(const QString& sandboxId, int tail);

    // The activity log: a lizard-local extension; the cloud
    // answers 404 and a lizard-local run with --no-activity 501. Entries after `since`.
    PendingCall* activity(const QString& sandboxId, qint64 since, int limit, QObject* ctx,
                          Done<ActivityPage> done);
    // The same followed live (client/activitystream.h): the entries after `since`, then each
    // new one. The returned object is owned by the caller (parent it).
    ActivityStream* followActivity(const QString& sandboxId, qint64 since);

    // Ports. The API cannot list exposures:
    // callers keep what exposePort answered.
    PendingCall* exposePort(const QString& sandboxId, int port, QObject* ctx,
                            Done<ExposedPort> done);
    PendingCall* unexposePort(const QString& sandboxId, int port, QObject* ctx, Done<Unit> done);

    // The screen of a desktop sandbox. Start is idempotent;
    // `size` invalid: the server's default (1280×800). Other templates fail with
    // DESKTOP_NOT_SUPPORTED.
    PendingCall* startDesktop(const QString& sandboxId, QSize size, QObject* ctx,
                              Done<DesktopInfo> done);
    PendingCall* desktopInfo(const QString& sandboxId, QObject* ctx, Done<DesktopInfo> done);
    PendingCall* stopDesktop(const QString& sandboxId, QObject* ctx, Done<Unit> done);

    // Lifecycle. Pause and resume answer at
    // once; the status then moves to paused / running (poll getSandbox). Restore is
    // createSandbox with CreateSandboxRequest::snapshotId.
    PendingCall* pauseSandbox(const QString& id, QObject* ctx, Done<Unit> done);
    PendingCall* resumeSandbox(const QString& id, QObject* ctx, Done<Unit> done);
    // lizard-local's lifecycle policies (the cloud answers 404; SandboxInfo carries them):
    // changes what it is given, onTimeout empty or idlePauseMinutes < 0 leave that field be.
    PendingCall* setLifecycle(const QString& id, const QString& onTimeout, int idlePauseMinutes,
                              QObject* ctx, Done<LifecyclePolicy> done);
    PendingCall* createSnapshot(const QString& sandboxId, const QString& name, QObject* ctx,
                                Done<Snapshot> done);
    PendingCall* listSnapshots(const QString& projectId, QObject* ctx, Done<QList<Snapshot>> done);
    PendingCall* listAllSnapshots(QObject* ctx, Done<QList<Snapshot>> done);
    PendingCall* getSnapshot(const QString& snapshotId, QObject* ctx, Done<Snapshot> done);
    PendingCall* deleteSnapshot(const QString& snapshotId, QObject* ctx, Done<Unit> done);
    // count 1..100; timeoutMs 0 = the source's lifetime. One entry per copy, in order.
    PendingCall* forkSandbox(const QString& id, int count, qint64 timeoutMs, QObject* ctx,
                             Done<QList<ForkEntry>> done);

    // Volumes of a project. nameOrId: either.
    PendingCall* createVolume(const QString& projectId, const QString& name, int sizeGb,
                              QObject* ctx, Done<Volume> done);
    PendingCall* getOrCreateVolume(const QString& projectId, const QString& name, int sizeGb,
                                   QObject* ctx, Done<Volume> done);
    PendingCall* listVolumes(const QString& projectId, QObject* ctx, Done<QList<Volume>> done);

    // lizard-local's warm pools of the templates (lizardapi_pools.cpp).
    PendingCall* listTemplatePools(QObject* ctx, Done<QList<TemplatePool>> done);
    PendingCall* setTemplatePool(const QString& name, int poolSize, QObject* ctx,
                                 Done<TemplatePool> done);
    // Templates built from recipes (lizardapi_templates.cpp; lizard-local only): the list has
    // the built-in ones too. followTemplateBuild's stream is the caller's to delete.
    PendingCall* listTemplates(QObject* ctx, Done<QList<TemplateInfo>> done);
    PendingCall* templateInfo(const QString& name, QObject* ctx, Done<TemplateInfo> done);
    PendingCall* checkRecipe(const QString& recipe, QObject* ctx, Done<RecipeCheck> done);
    PendingCall* buildTemplate(const QString& name, const QString& recipe,
                               const QMap<QString, QByteArray>& files, QObject* ctx,
                               Done<TemplateBuild> done);
    PendingCall* deleteTemplate(const QString& name, QObject* ctx, Done<Unit> done);
    TemplateBuildStream* followTemplateBuild(const QString& name, const QString& buildId);
    PendingCall* getVolume(const QString& projectId, const QString& nameOrId, QObject* ctx,
                           Done<Volume> done);
    PendingCall* resizeVolume(const QString& projectId, const QString& nameOrId, int sizeGb,
                              QObject* ctx, Done<Volume> done);
    PendingCall* deleteVolume(const QString& projectId, const QString& nameOrId, QObject* ctx,
                              Done<Unit> done);

    // Files panel. Streaming transfers between
    // a local file and the sandbox: never the whole file in memory; progress(bytes, total) runs
    // from the event loop; done gets the file's byte count. A download writes localPath
    // atomically (a failed or cancelled one leaves it untouched).
    using Progress = std::function<void(qint64 bytes, qint64 total)>;
    PendingCall* uploadFile(const QString& sandboxId, const QString& localPath,
                            const QString& remotePath, QObject* ctx, Progress progress,
                            Done<qint64> done);
    PendingCall* downloadFile(const QString& sandboxId, const QString& remotePath,
                              const QString& localPath, QObject* ctx, Progress progress,
                              Done<qint64> done);
    // mkdir -p inside the sandbox (the API has no route for it; the SDK's makeDir execs too).
    PendingCall* makeDir(const QString& sandboxId, const QString& path, QObject* ctx,
                         Done<Unit> done);

    // API keys of the account. readOnly asks for lizard-local's
    // read-only scope; otherwise the key has full access.
    PendingCall* listApiKeys(QObject* ctx, Done<QList<ApiKey>> done);
    PendingCall* createApiKey(const QString& name, bool readOnly, QObject* ctx,
                              Done<CreatedApiKey> done);
    PendingCall* revokeApiKey(const QString& id, QObject* ctx, Done<Unit> done);

    // Terminals: lizard-local's PTY sessions; the cloud answers 404.
    // updateTerminal: cols/rows 0 and no name are left unchanged. signal: "SIGINT", "INT", "2".
    PendingCall* createTerminal(const QString& sandboxId, const CreateTerminalRequest& req,
                                QObject* ctx, Done<TerminalInfo> done);
    PendingCall* listTerminals(const QString& sandboxId, QObject* ctx,
                               Done<QList<TerminalInfo>> done);
    PendingCall* getTerminal(const QString& sandboxId, const QString& terminalId, QObject* ctx,
                             Done<TerminalInfo> done);
    PendingCall* updateTerminal(const QString& sandboxId, const QString& terminalId, int cols,
                                int rows, const std::optional<QString>& name, QObject* ctx,
                                Done<TerminalInfo> done);
    PendingCall* signalTerminal(const QString& sandboxId, const QString& terminalId,
                                const QString& signal, QObject* ctx, Done<Unit> done);
    // Ends the session (SIGHUP, then SIGKILL after 2 s).
    PendingCall* closeTerminal(const QString& sandboxId, const QString& terminalId, QObject* ctx,
                               Done<Unit> done);
    // Attaches to the terminal (replay: first the recent output). The returned link is owned
    // by the caller (parent it).
    TerminalLink* attachTerminal(const QString& sandboxId, const QString& terminalId,
                                 bool replay = true);

    // Any call not wrapped above: method, path ("/api/..."), JSON body (empty for none).
    PendingCall* rawJson(const QByteArray& method, const QString& path, const QByteArray& jsonBody,
                         QObject* ctx, Done<QByteArray> done);

signals:
    // A call or stream found no server at the endpoint or lost its connection mid-answer
    // (refused, reset, cut). Comes at once, from the event loop, after that call's own failure,
    // once per broken transfer; whether the server is back, a later call tells.
    void connectionLost(const QString& reason);

private:
    Endpoint m_endpoint;
    std::unique_ptr<CurlMulti> m_multi;
    QPointer<ProxyRoute> m_route;
};

} // namespace lizard::client
