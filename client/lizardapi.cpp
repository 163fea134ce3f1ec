#include "client/lizardapi.h"

#include "client/apicall.h"
#include "client/curlmulti.h"
#include "client/execstreamimpl.h"
#include "client/jsonmapping.h"
#include "client/requestbuilder.h"

#include <QRegularExpression>

namespace lizard::client {

using namespace apicall;

LizardApi::LizardApi(Endpoint endpoint, QObject* parent)
    : QObject(parent), m_endpoint(std::move(endpoint)), m_multi(std::make_unique<CurlMulti>())
{
    connect(m_multi.get(), &CurlMulti::connectionBroke, this, [this](int curlCode) {
        // curl's own words ("Transferred a partial file") mean little to a user.
        emit connectionLost(curlCode == CURLE_COULDNT_CONNECT
                                ? QStringLiteral("nothing answers at %1").arg(m_endpoint.baseUrl)
                                : QStringLiteral("the connection broke off"));
    });
}

// Calls still running are abandoned; their callbacks then run from the event loop with
// ApiError::Kind::Cancelled (unless their context is gone).
LizardApi::~LizardApi() = default;

PendingCall* LizardApi::whoAmI(QObject* ctx, Done<WhoAmI> done)
{
    // The answer's Server header names the server's software and version (lizard-local sends
    // "lizard-local/<version>"), which the About box shows.
    const QString what = tr("Check the API key");
    return new PendingCallImpl(
        m_multi.get(), RequestBuilder(m_endpoint).json("GET", "/api/auth/me"), ctx,
        [what, done = std::move(done)](const HttpResponse& r) {
            Outcome<WhoAmI> outcome = mapAnswer<WhoAmI>(r, what, parseWhoAmI);
            if (outcome)
                outcome.value().server = QString::fromUtf8(r.header("server"));
            if (done)
                done(std::move(outcome));
        });
}

PendingCall* LizardApi::listProjects(QObject* ctx, Done<QList<Project>> done)
{
    return startCall<QList<Project>>(m_multi.get(),
                                     RequestBuilder(m_endpoint).json("GET", "/api/projects"),
                                     tr("List projects"), ctx, std::move(done), parseProjects);
}

PendingCall* LizardApi::createProject(const QString& name, QObject* ctx, Done<Project> done)
{
    return startCall<Project>(
        m_multi.get(), RequestBuilder(m_endpoint).json("POST", "/api/projects", nameBody(name)),
        tr("Create project"), ctx, std::move(done), parseProject);
}

PendingCall* LizardApi::renameProject(const QString& id, const QString& name, QObject* ctx,
                                      Done<Project> done)
{
    const auto req =
        RequestBuilder(m_endpoint).json("PATCH", "/api/projects/" + seg(id), nameBody(name));
    return startCall<Project>(m_multi.get(), req, tr("Rename project"), ctx, std::move(done),
                              parseProject);
}

PendingCall* LizardApi::deleteProject(const QString& id, QObject* ctx, Done<Unit> done)
{
    const auto req = RequestBuilder(m_endpoint).json("DELETE", "/api/projects/" + seg(id));
    return startCall<Unit>(m_multi.get(), req, tr("Delete project"), ctx, std::move(done), noValue);
}

PendingCall* LizardApi::listSandboxes(const QString& projectId, QObject* ctx,
                                      Done<QList<SandboxInfo>> done)
{
    const QByteArray path =
        projectId.isEmpty() ? "/api/sandboxes" : "/api/projects/" + seg(projectId) + "/sandboxes";
    return startCall<QList<SandboxInfo>>(
        m_multi.get(), RequestBuilder(m_endpoint).json("GET", path), tr("List sandboxes"), ctx,
        std::move(done), parseSandboxes);
}

PendingCall* LizardApi::getSandbox(const QString& id, QObject* ctx, Done<SandboxInfo> done)
{
    return startCall<SandboxInfo>(m_multi.get(),
                                  RequestBuilder(m_endpoint).json("GET", sandboxPath(id)),
                                  tr("Get sandbox"), ctx, std::move(done), parseSandbox);
}

PendingCall* LizardApi::createSandbox(const CreateSandboxRequest& req, QObject* ctx,
                                      Done<SandboxInfo> done)
{
    auto request =
        RequestBuilder(m_endpoint).json("POST", "/api/sandboxes", createSandboxBody(req));
    request.timeoutMs =
        300000; // building a sandbox (a snapshot restore, a cold template) can be slow
    return startCall<SandboxInfo>(m_multi.get(), request, tr("Create sandbox"), ctx,
                                  std::move(done), parseSandbox);
}

PendingCall* LizardApi::killSandbox(const QString& id, QObject* ctx, Done<Unit> done)
{
    return startCall<Unit>(m_multi.get(),
                           RequestBuilder(m_endpoint).json("DELETE", sandboxPath(id)),
                           tr("Kill sandbox"), ctx, std::move(done), noValue);
}

PendingCall* LizardApi::setSandboxTimeout(const QString& id, qint64 timeoutMs, QObject* ctx,
                                          Done<Unit> done)
{
    const auto req = RequestBuilder(m_endpoint)
                         .json("POST", sandboxPath(id, "/timeout"), timeoutBody(timeoutMs));
    return startCall<Unit>(m_multi.get(), req, tr("Set sandbox timeout"), ctx, std::move(done),
                           noValue);
}

namespace {

HttpRequest execRequest(const Endpoint& endpoint, const QString& sandboxId, const QByteArray& body,
                        const ExecOptions& opts, bool streaming)
{
    const RequestBuilder builder(endpoint);
    HttpRequest r = streaming ? builder.eventStream(sandboxPath(sandboxId, "/exec"), body)
                              : builder.json("POST", sandboxPath(sandboxId, "/exec"), body);
    // Leave the server room to answer about its own command timeout before we give up.
    r.timeoutMs = opts.timeoutMs > 0 ? opts.timeoutMs + 30000 : 0;
    if (opts.housekeeping)
        r.headers << QByteArrayLiteral("X-Lizard-Housekeeping: 1");
    return r;
}

} // namespace

PendingCall* LizardApi::exec(const QString& sandboxId, const QString& shellCmd,
                             const ExecOptions& opts, QObject* ctx, Done<ExecResult> done)
{
    const auto req =
        execRequest(m_endpoint, sandboxId, execBody(shellCmd, {}, false, opts, false), opts, false);
    return startCall<ExecResult>(m_multi.get(), req, tr("Run command"), ctx, std::move(done),
                                 parseExecResult);
}

PendingCall* LizardApi::execArgv(const QString& sandboxId, const QStringList& argv,
                                 const ExecOptions& opts, QObject* ctx, Done<ExecResult> done)
{
    const auto req =
        execRequest(m_endpoint, sandboxId, execBody({}, argv, true, opts, false), opts, false);
    return startCall<ExecResult>(m_multi.get(), req, tr("Run command"), ctx, std::move(done),
                                 parseExecResult);
}

ExecStream* LizardApi::execStream(const QString& sandboxId, const QString& shellCmd,
                                  const ExecOptions& opts)
{
    const auto req =
        execRequest(m_endpoint, sandboxId, execBody(shellCmd, {}, false, opts, true), opts, true);
    return new ExecStreamImpl(m_multi.get(), req, tr("Run command"));
}

ExecStream* LizardApi::execStreamArgv(const QString& sandboxId, const QStringList& argv,
                                      const ExecOptions& opts)
{
    const auto req =
        execRequest(m_endpoint, sandboxId, execBody({}, argv, true, opts, true), opts, true);
    return new ExecStreamImpl(m_multi.get(), req, tr("Run command"));
}

PendingCall* LizardApi::listProcesses(const QString& sandboxId, QObject* ctx,
                                      Done<QList<ProcessInfo>> done)
{
    return startCall<QList<ProcessInfo>>(
        m_multi.get(), RequestBuilder(m_endpoint).json("GET", sandboxPath(sandboxId, "/processes")),
        tr("List processes"), ctx, std::move(done), parseProcesses);
}

PendingCall* LizardApi::signalProcess(const QString& sandboxId, int pid, const QString& signal,
                                      QObject* ctx, Done<Unit> done)
{
    const auto req =
        RequestBuilder(m_endpoint)
            .json("POST", sandboxPath(sandboxId, "/processes/signal"), signalBody(pid, signal));
    return startCall<Unit>(m_multi.get(), req, tr("Signal process"), ctx, std::move(done), noValue);
}

PendingCall* LizardApi::readFile(const QString& sandboxId, const QString& path, QObject* ctx,
                                 Done<QByteArray> done)
{
    const auto req =
        RequestBuilder(m_endpoint)
            .json("GET", withQuery(sandboxPath(sandboxId, "/files"), {{"path", path}}));
    return startCall<QByteArray>(m_multi.get(), req, tr("Read file"), ctx, std::move(done),
                                 rawBytes);
}

PendingCall* LizardApi::writeFile(const QString& sandboxId, const QString& path,
                                  const QByteArray& content, QObject* ctx, Done<Unit> done)
{
    auto req = RequestBuilder(m_endpoint)
                   .json("POST", sandboxPath(sandboxId, "/files"), writeFileBody(path, content));
    req.timeoutMs = 600000; // large uploads
    return startCall<Unit>(m_multi.get(), req, tr("Write file"), ctx, std::move(done), noValue);
}

PendingCall* LizardApi::removeFile(const QString& sandboxId, const QString& path, QObject* ctx,
                                   Done<Unit> done)
{
    const auto req =
        RequestBuilder(m_endpoint).json("DELETE", sandboxPath(sandboxId, "/files"), pathBody(path));
    return startCall<Unit>(m_multi.get(), req, tr("Remove file"), ctx, std::move(done), noValue);
}

PendingCall* LizardApi::listDir(const QString& sandboxId, const QString& path, QObject* ctx,
                                Done<QList<FileEntry>> done)
{
    const auto req =
        RequestBuilder(m_endpoint)
            .json("GET", withQuery(sandboxPath(sandboxId, "/files/list"), {{"path", path}}));
    // A listing can hold many thousands of entries (about 200 bytes of JSON each).
    return startCallParsedOffThread<QList<FileEntry>>(m_multi.get(), req, tr("List directory"), ctx,
                                                      std::move(done), parseFileEntries);
}

PendingCall* LizardApi::statFile(const QString& sandboxId, const QString& path, QObject* ctx,
                                 Done<FileEntry> done)
{
    const auto req =
        RequestBuilder(m_endpoint)
            .json("GET", withQuery(sandboxPath(sandboxId, "/files/stat"), {{"path", path}}));
    return startCall<FileEntry>(m_multi.get(), req, tr("Inspect file"), ctx, std::move(done),
                                parseFileEntry);
}

PendingCall* LizardApi::moveFile(const QString& sandboxId, const QString& from, const QString& to,
                                 QObject* ctx, Done<Unit> done)
{
    const auto req = RequestBuilder(m_endpoint)
                         .json("POST", sandboxPath(sandboxId, "/files/move"), moveBody(from, to));
    return startCall<Unit>(m_multi.get(), req, tr("Move file"), ctx, std::move(done), noValue);
}

PendingCall* LizardApi::rawJson(const QByteArray& method, const QString& path,
                                const QByteArray& jsonBody, QObject* ctx, Done<QByteArray> done)
{
    const QByteArray verb = method.trimmed().toUpper();
    const QString what = QString::fromLatin1(verb) + QLatin1Char(' ') + path;
    static const QRegularExpression verbRe(QStringLiteral("^[A-Z]{1,16}$"));
    if (!verbRe.match(QString::fromLatin1(verb)).hasMatch() || !path.startsWith(QLatin1Char('/'))) {
        ApiError e;
        e.kind = ApiError::Kind::InvalidRequest;
        e.message = tr("a request needs an HTTP method and a path starting with /");
        e.what = what;
        return new PendingCallImpl(ctx, [done = std::move(done), e] {
            if (done)
                done(e);
        });
    }
    std::optional<QByteArray> body;
    if (!jsonBody.isEmpty())
        body = jsonBody;
    // The path is the caller's, already encoded where needed; only characters that can never
    // be part of a URL (spaces, controls, non-ASCII) are escaped.
    const QByteArray encoded = path.toUtf8().toPercentEncoding("/?&=%:@!$'()*+,;~-._[]");
    const auto req = RequestBuilder(m_endpoint).json(verb, encoded, body);
    return startCall<QByteArray>(m_multi.get(), req, what, ctx, std::move(done), rawBytes);
}

} // namespace lizard::client
