// LizardApi: commands (exec, streaming exec) and processes of a sandbox.
#include "client/apicall.h"
#include "client/curlmulti.h"
#include "client/execstreamimpl.h"
#include "client/jsonmapping.h"
#include "client/lizardapi.h"
#include "client/requestbuilder.h"

namespace lizard::client {

using namespace apicall;

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

PendingCall* LizardApi::processTree(const QString& sandboxId, QObject* ctx, Done<ProcessTree> done)
{
    return startCall<ProcessTree>(
        m_multi.get(),
        RequestBuilder(m_endpoint).json("GET", sandboxPath(sandboxId, "/processes/tree")),
        tr("List all processes"), ctx, std::move(done), parseProcessTree);
}

PendingCall* LizardApi::signalTreeProcess(const QString& sandboxId, int pid, const QString& signal,
                                          bool tree, QObject* ctx, Done<Unit> done)
{
    const auto req = RequestBuilder(m_endpoint)
                         .json("POST", sandboxPath(sandboxId, "/processes/tree/signal"),
                               signalBody(pid, signal, tree));
    return startCall<Unit>(m_multi.get(), req, tr("Signal process"), ctx, std::move(done), noValue);
}

} // namespace lizard::client
