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
