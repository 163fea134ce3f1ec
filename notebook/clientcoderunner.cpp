#include "notebook/clientcoderunner.h"

#include "client/keytransport.h"
#include "client/lizardapi.h"

#include <QRegularExpression>
#include <QUrl>

namespace lizard::notebook {

using client::CodeRun;
using client::ExecutionError;
using client::ExecutionResult;

ClientCodeRunner::ClientCodeRunner(client::CodeInterpreter* interpreter, QString contextId,
                                   QString language, QObject* parent)
    : CodeRunner(parent), m_interpreter(interpreter), m_contextId(std::move(contextId)),
      m_language(std::move(language))
{
    connect(interpreter, &client::CodeInterpreter::kernelStateChanged, this,
            &ClientCodeRunner::onInterpreterState);
}

void ClientCodeRunner::setInterpreter(client::CodeInterpreter* interpreter)
{
    if (m_run && !m_run->isFinished()) {
        // The old interpreter takes its runs with it: the cell must not wait for ever.
        disconnect(m_run, nullptr, this, nullptr);
        m_run = nullptr;
        emit failed(QStringLiteral("the connection to the sandbox was lost while the cell ran "
                                   "(it may have finished there)"));
    }
    if (m_interpreter)
        disconnect(m_interpreter, nullptr, this, nullptr);
    m_interpreter = interpreter;
    if (interpreter)
        connect(interpreter, &client::CodeInterpreter::kernelStateChanged, this,
                &ClientCodeRunner::onInterpreterState);
    emit kernelStateChanged(kernelState());
}

ClientCodeRunner::~ClientCodeRunner()
{
    if (m_run)
        m_run->deleteLater();
}

void ClientCodeRunner::setContext(const QString& contextId, const QString& language)
{
    const client::KernelState before = kernelState();
    m_contextId = contextId;
    m_language = language.isEmpty() ? QStringLiteral("python") : language;
    if (kernelState() != before)
        emit kernelStateChanged(kernelState());
}

QString ClientCodeRunner::effectiveContextId() const
{
    return m_contextId.isEmpty() ? QStringLiteral("default-") + m_language : m_contextId;
}

client::KernelState ClientCodeRunner::kernelState() const
{
    return m_interpreter ? m_interpreter->kernelState(effectiveContextId())
                         : client::KernelState::Unknown;
}

void ClientCodeRunner::onInterpreterState(const QString& contextId, client::KernelState state)
{
    if (contextId == effectiveContextId())
        emit kernelStateChanged(state);
}

ErrorOutput ClientCodeRunner::toErrorOutput(const ExecutionError& error)
{
    ErrorOutput out;
    out.ename = error.name;
    out.evalue = error.message;
    if (error.name == QLatin1String("KernelDied")) {
        // The runner says how it ended ("the kernel died (killed by SIGKILL (signal 9), often
        // out of memory); ..."); the user also needs what that means for their work.
        static const QRegularExpression how(QStringLiteral("^the kernel died \\((.*)\\);"));
        const QRegularExpressionMatch m = how.match(error.message);
        const QString cause = m.hasMatch() ? m.captured(1) : error.message;
        out.evalue = QStringLiteral("Kernel died (%1). Its variables are lost.").arg(cause);
        out.traceback = {
            QStringLiteral("\x1b[1;31mKernel died\x1b[0m (%1).").arg(cause),
            QStringLiteral("The variables of this context are lost. Press ↻ Restart to "
                           "start a fresh kernel (the next run also starts one).")};
        return out;
    }
    const QString tb = error.tracebackAnsi.isEmpty() ? error.traceback : error.tracebackAnsi;
    if (!tb.isEmpty())
        out.traceback = tb.split(QLatin1Char('\n'));
    return out;
}

RichOutput ClientCodeRunner::toRichOutput(const ExecutionResult& result)
{
    RichOutput out;
    out.kind = result.isDisplay ? RichOutput::Kind::DisplayData : RichOutput::Kind::ExecuteResult;
    out.executionCount = result.executionCount;
    out.displayId = result.displayId;
    for (auto it = result.bundle.begin(); it != result.bundle.end(); ++it) {
        const std::string value = it.value().toStdString();
        if (isJsonMime(it.key())) {
            // The runner sends JSON values as JSON text; nbformat keeps them as JSON.
            nlohmann::json parsed = nlohmann::json::parse(value, nullptr, false);
            out.data[it.key().toStdString()] =
                parsed.is_discarded() ? nlohmann::json(value) : parsed;
        } else {
            out.data[it.key().toStdString()] = value;
        }
    }
    if (result.metadata.is_object() && !result.metadata.empty())
        out.metadata = result.metadata;
    return out;
}

void ClientCodeRunner::startKernel()
{
    if (!m_interpreter || m_language != u"python" || (m_start && !m_start->isFinished()) ||
        (m_run && !m_run->isFinished()) || kernelState() != client::KernelState::Unknown)
        return;
    m_start = m_interpreter->startKernel(m_contextId, m_language);
}

void ClientCodeRunner::run(const QString& code, const QHash<QString, QString>& envs)
{
    if (!m_start || m_start->isFinished()) {
        gatedRun(code, envs);
        return;
    }
    // Interrupt drops it while it waits, as at the gate.
    const int token = ++m_gateToken;
    m_gated = true;
    const auto go = [self = QPointer<ClientCodeRunner>(this), token, code, envs] {
        if (!self || token != self->m_gateToken || !self->m_gated)
            return;
        self->m_gated = false;
        self->gatedRun(code, envs);
    };
    // Failed, or gone with its interpreter (a new connection): destroyed.
    connect(m_start, &CodeRun::finished, this, go);
    connect(m_start, &QObject::destroyed, this, go);
}

void ClientCodeRunner::gatedRun(const QString& code, const QHash<QString, QString>& envs)
{
    if (!m_gate) {
        startRun(code, envs);
        return;
    }
    const int token = ++m_gateToken;
    m_gated = true;
    m_gate([self = QPointer<ClientCodeRunner>(this), token, code, envs](QString error) {
        if (!self || token != self->m_gateToken)
            return; // interrupted while it waited
        self->m_gated = false;
        if (!error.isEmpty())
            emit self->failed(error);
        else
            self->startRun(code, envs);
    });
}

void ClientCodeRunner::startRun(const QString& code, const QHash<QString, QString>& envs)
{
    if (!m_interpreter) {
        // The connection went while the cell waited for its turn (the gate): said as for a
        // cell that was running, since to its user it was.
        emit failed(QStringLiteral("the connection to the sandbox was lost before the cell "
                                   "started (it did not run)"));
        return;
    }
    if (m_run)
        m_run->deleteLater(); // one at a time: the queue never asks before the last ended
    client::RunCodeOptions opts;
    opts.contextId = m_contextId;
    opts.language = m_language;
    opts.timeoutS = m_timeoutS;
    for (auto it = envs.begin(); it != envs.end(); ++it)
        opts.envs.insert(it.key(), it.value());
    CodeRun* run = m_interpreter->runCode(code, opts);
    m_run = run;
    connect(run, &CodeRun::stdoutReceived, this, [this](const QString& text) {
        emit streamReceived(StreamOutput{QStringLiteral("stdout"), text});
    });
    connect(run, &CodeRun::stderrReceived, this, [this](const QString& text) {
        emit streamReceived(StreamOutput{QStringLiteral("stderr"), text});
    });
    connect(run, &CodeRun::resultReceived, this,
            [this](const ExecutionResult& r) { emit resultReceived(toRichOutput(r)); });
    connect(run, &CodeRun::displayUpdated, this, [this](const ExecutionResult& r) {
        emit displayUpdated(r.displayId, toRichOutput(r));
    });
    connect(run, &CodeRun::outputCleared, this, &ClientCodeRunner::outputCleared);
    connect(run, &CodeRun::errorReceived, this,
            [this](const ExecutionError& e) { emit errorReceived(toErrorOutput(e)); });
    connect(run, &CodeRun::noticeReceived, this, &ClientCodeRunner::noticeReceived);
    connect(run, &CodeRun::finished, this, [this, run](const client::Execution& ex) {
        run->deleteLater();
        emit done(ex.executionCount > 0 ? std::optional<int>(ex.executionCount) : std::nullopt);
    });
    connect(run, &CodeRun::failed, this, [this, run](const client::ApiError& e) {
        run->deleteLater();
        emit failed(failureText(e));
    });
}

QString ClientCodeRunner::serverName() const
{
    if (!m_interpreter || !m_interpreter->api())
        return QStringLiteral("the server");
    const QString host = QUrl(m_interpreter->api()->endpoint().baseUrl).host();
    return client::isLoopbackHost(host) ? QStringLiteral("lizard-local") : host;
}

QString ClientCodeRunner::failureText(const client::ApiError& error) const
{
    if (error.kind != client::ApiError::Kind::Network)
        return error.toDisplayString();
    // curl's words go to the status bar; the cell says what the break means for it.
    if (error.code == QLatin1String("CONNECTION_LOST"))
        return QStringLiteral(
                   "The connection to %1 was lost while this cell ran; it may or may not have "
                   "finished.\nRun it again once the app is connected (the banner says when).")
            .arg(serverName());
    return QStringLiteral("Could not reach %1: the cell did not run.\n(%2)")
        .arg(serverName(), error.message);
}

void ClientCodeRunner::interrupt()
{
    if (m_gated) { // it never started: nothing to stop in the sandbox
        m_gated = false;
        ++m_gateToken;
        emit done(std::nullopt);
        return;
    }
    if (m_run && !m_run->isFinished())
        m_run->interrupt();
}

void ClientCodeRunner::restart(std::function<void(QString error)> done)
{
    if (!m_interpreter) {
        done(QStringLiteral("the sandbox connection is gone"));
        return;
    }
    m_interpreter->restartContext(effectiveContextId(), this,
                                  [done](client::Outcome<client::Unit> o) {
                                      done(o.ok() ? QString() : o.error().toDisplayString());
                                  });
}

void ClientCodeRunner::complete(const QString& code, int cursor, QObject* ctx, CompleteDone done)
{
    if (!m_interpreter) {
        CodeRunner::complete(code, cursor, ctx, std::move(done));
        return;
    }
    m_interpreter->complete(
        m_contextId, m_language, code, cursor, ctx ? ctx : this,
        [done](client::Outcome<client::Completions> result) {
            if (!result) {
                done(std::nullopt);
                return;
            }
            CompletionReply reply{result.value().cursorStart, result.value().cursorEnd, {}};
            for (const client::CompletionMatch& m : result.value().matches)
                reply.matches.append({m.text, m.type});
            done(reply);
        });
}

void ClientCodeRunner::inspect(const QString& code, int cursor, QObject* ctx, InspectDone done)
{
    if (!m_interpreter) {
        CodeRunner::inspect(code, cursor, ctx, std::move(done));
        return;
    }
    m_interpreter->inspect(m_contextId, m_language, code, cursor, ctx ? ctx : this,
                           [done](client::Outcome<client::Inspection> result) {
                               if (!result || !result.value().found)
                                   done(std::nullopt);
                               else
                                   done(result.value().textAnsi);
                           });
}

void ClientCodeRunner::listVariables(const QString& name, QObject* ctx, VariablesDone done)
{
    if (!m_interpreter) {
        CodeRunner::listVariables(name, ctx, std::move(done));
        return;
    }
    m_interpreter->listVariables(
        m_contextId, m_language, name, ctx ? ctx : this,
        [done](client::Outcome<client::VariableListing> result) {
            VariableList list;
            if (!result) {
                list.error = result.error().message;
                done(list);
                return;
            }
            list.kernel = result.value().kernel;
            for (const client::VariableInfo& v : result.value().variables)
                list.variables.append({v.name, v.type, v.shape, v.size, v.preview, v.repr});
            done(list);
        });
}

namespace {

// A table call after the sandbox connection went: answered like any other, from the event loop.
template <class Done, class Empty> void answerGone(QObject* context, Done done, Empty empty)
{
    QMetaObject::invokeMethod(
        context,
        [done = std::move(done), empty] {
            done(empty, QStringLiteral("the sandbox connection is gone"));
        },
        Qt::QueuedConnection);
}

// The answer, or what stands instead of it and why.
template <class T, class Done> auto answer(Done done)
{
    return [done = std::move(done)](client::Outcome<T> result) {
        if (result)
            done(std::move(result.value()), QString());
        else
            done(T{}, result.error().message);
    };
}

} // namespace

void ClientCodeRunner::tableRows(const TableRowsRequest& request, QObject* ctx, TableRowsDone done)
{
    QObject* context = ctx ? ctx : this;
    if (!m_interpreter)
        return answerGone(context, std::move(done), client::TableRows{});
    const client::TableRowsQuery query{request.handle, request.start, request.count, request.column,
                                       request.ascending};
    m_interpreter->tableRows(request.context, query, context,
                             answer<client::TableRows>(std::move(done)));
}

void ClientCodeRunner::tableForVariable(const QString& name, QObject* ctx, TableDone done)
{
    QObject* context = ctx ? ctx : this;
    if (!m_interpreter)
        return answerGone(context, std::move(done), nlohmann::json());
    m_interpreter->tableForVariable(m_contextId, m_language, name, context,
                                    answer<nlohmann::json>(std::move(done)));
}

} // namespace lizard::notebook
