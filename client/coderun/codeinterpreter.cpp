#include "client/coderun/codeinterpreter.h"

#include "client/coderun/oneshotexec.h"
#include "client/coderun/runnercall.h"
#include "client/coderun/runnerevents.h"
#include "client/coderun/servechannel.h"
#include "client/lizardapi.h"

#include <QDateTime>
#include <QJsonArray>
#include <QTimer>

namespace lizard::client {

namespace {

constexpr qint64 kServeRetryMs = 30000; // after serve failed: exec-per-run for this long

QString languageName(const QString& language)
{
    const QString l = language.isEmpty() ? QStringLiteral("python") : language.toLower();
    if (l == QLatin1String("py") || l == QLatin1String("python3"))
        return QStringLiteral("python");
    if (l == QLatin1String("js") || l == QLatin1String("node"))
        return QStringLiteral("javascript");
    if (l == QLatin1String("sh"))
        return QStringLiteral("bash");
    return l;
}

CodeContext toContext(const QJsonObject& o)
{
    return CodeContext{o.value(QStringLiteral("id")).toString(),
                       o.value(QStringLiteral("language")).toString(),
                       o.value(QStringLiteral("cwd")).toString()};
}

VariablesReport toReport(const QJsonObject& o)
{
    VariablesReport r;
    const QJsonArray names = o.value(o.contains(QStringLiteral("loaded")) ? QStringLiteral("loaded")
                                                                          : QStringLiteral("saved"))
                                 .toArray();
    for (const QJsonValue& n : names)
        r.names.append(n.toString());
    for (const QJsonValue& s : o.value(QStringLiteral("skipped")).toArray())
        r.skipped.append({s.toObject().value(QStringLiteral("name")).toString(),
                          s.toObject().value(QStringLiteral("reason")).toString()});
    return r;
}

} // namespace

CodeInterpreter::CodeInterpreter(LizardApi* api, QString sandboxId, QObject* parent)
    : QObject(parent), m_api(api), m_sandboxId(std::move(sandboxId)), m_source(runnerSource()),
      m_serveLifetimeS(ServeChannel::kLifetimeS)
{
}

CodeInterpreter::~CodeInterpreter()
{
    delete m_serve;
    delete m_retiring;
}

void CodeInterpreter::setFastPathEnabled(bool enabled)
{
    m_fastPathEnabled = enabled;
    if (!enabled && m_serve) {
        m_serve->deleteLater(); // closes its stream; what is in flight there fails
        m_serve = nullptr;
        flushWaiting();
    }
}

CodeInterpreter::Transport CodeInterpreter::currentTransport() const
{
    return m_fastPathEnabled && m_serve && m_serve->state() == ServeChannel::State::Ready
               ? Transport::Serve
               : Transport::ExecPerRun;
}

void CodeInterpreter::setServeLifetime(int seconds)
{
    m_serveLifetimeS = std::clamp(seconds, 1, 540);
}

void CodeInterpreter::warmUp()
{
    if (m_fastPathEnabled)
        ensureServe();
}

void CodeInterpreter::ensureServe()
{
    if (m_serve || QDateTime::currentMSecsSinceEpoch() < m_serveRetryAtMs)
        return;
    auto* channel = new ServeChannel(m_api, m_sandboxId, m_source, m_serveLifetimeS, this);
    m_serve = channel;
    connect(channel, &ServeChannel::ready, this, &CodeInterpreter::onServeReady);
    connect(channel, &ServeChannel::expiring, this, &CodeInterpreter::onServeExpiring);
    connect(channel, &ServeChannel::died, this, [this, channel](const QString& why) {
        if (channel == m_serve)
            onServeDied(why);
        channel->deleteLater();
    });
    connect(channel, &ServeChannel::notDelivered, this, [this](RunnerCall* call, const ApiError&) {
        // It never reached the runner: safe to send the other way.
        sendOneShot(call);
    });
    channel->start();
}

void CodeInterpreter::onServeReady()
{
    emit transportChanged(Transport::Serve);
    flushWaiting();
}

void CodeInterpreter::onServeExpiring()
{
    // The old one answers what it has and leaves; new requests go to a new one (new inbox).
    if (m_retiring)
        m_retiring->deleteLater();
    m_retiring = m_serve;
    m_serve = nullptr;
    ensureServe();
}

void CodeInterpreter::onServeDied(const QString& why)
{
    qWarning("code runner: fast path unavailable, using exec-per-run for %llds: %s",
             kServeRetryMs / 1000, qPrintable(why));
    m_serve = nullptr;
    m_serveRetryAtMs = QDateTime::currentMSecsSinceEpoch() + kServeRetryMs;
    emit transportChanged(Transport::ExecPerRun);
    flushWaiting();
}

void CodeInterpreter::flushWaiting()
{
    const auto waiting = m_waiting;
    m_waiting.clear();
    for (const auto& call : waiting) {
        if (!call)
            continue;
        if (m_serve && m_serve->state() == ServeChannel::State::Ready)
            m_serve->send(call);
        else
            sendOneShot(call);
    }
}

RunnerCall* CodeInterpreter::send(QJsonObject request)
{
    auto* call = new RunnerCall(std::move(request), this);
    // A serve process takes requests for its lifetime and is cut off by the exec cap (600 s), so
    // what it accepts has at least 600 - lifetime s; a run that may take longer goes its own way.
    const bool fitsServe =
        call->action() != QLatin1String("run") || call->timeoutS() + 20 <= 600 - m_serveLifetimeS;
    if (!m_fastPathEnabled || !fitsServe) {
        sendOneShot(call);
        return call;
    }
    ensureServe();
    if (!m_serve)
        sendOneShot(call);
    else if (m_serve->state() == ServeChannel::State::Ready)
        m_serve->send(call);
    else
        m_waiting.append(call);
    return call;
}

void CodeInterpreter::sendOneShot(RunnerCall* call)
{
    OneShotExec::start(m_api, m_sandboxId, m_source, call);
}

void CodeInterpreter::setState(const QString& contextId, KernelState state)
{
    if (m_states.value(contextId, KernelState::Unknown) == state)
        return;
    m_states.insert(contextId, state);
    emit kernelStateChanged(contextId, state);
}

CodeRun* CodeInterpreter::runCode(const QString& code, const RunCodeOptions& options)
{
    QJsonObject req{
        {QStringLiteral("action"), QStringLiteral("run")},
        {QStringLiteral("code"), code},
        {QStringLiteral("timeout"), std::min(std::max(options.timeoutS, 0.001), kMaxRunTimeoutS)}};
    const QString language = languageName(options.language);
    QString contextId = options.contextId;
    if (contextId.isEmpty()) {
        contextId = QStringLiteral("default-") + language;
        req.insert(QStringLiteral("language"), language);
        if (!options.cwd.isEmpty())
            req.insert(QStringLiteral("cwd"), options.cwd);
    } else {
        req.insert(QStringLiteral("context"), contextId);
    }
    if (!options.envs.isEmpty()) {
        QJsonObject envs;
        for (auto it = options.envs.begin(); it != options.envs.end(); ++it)
            envs.insert(it.key(), it.value());
        req.insert(QStringLiteral("envs"), envs);
    }
    RunnerCall* call = send(req);
    QPointer<CodeInterpreter> self(this);
    auto* run = new CodeRun(
        call, contextId,
        [self, contextId] {
            if (self)
                self->interrupt(contextId, nullptr, [](Outcome<bool>) {});
        },
        this);
    trackRun(run);
    return run;
}

void CodeInterpreter::trackRun(CodeRun* run)
{
    const QString id = run->contextId();
    setState(id, KernelState::Busy);
    connect(run, &CodeRun::errorReceived, this, [this, id](const ExecutionError& e) {
        if (e.name == QLatin1String("KernelDied"))
            setState(id, KernelState::Dead);
    });
    connect(run, &CodeRun::finished, this, [this, id](const Execution& ex) {
        const bool died = ex.error && ex.error->name == QLatin1String("KernelDied");
        setState(id, died ? KernelState::Dead : KernelState::Idle);
    });
    connect(run, &CodeRun::failed, this,
            [this, id](const ApiError&) { setState(id, KernelState::Unknown); });
}

template <class T>
void CodeInterpreter::action(QJsonObject request, QObject* ctx, Done<T> done,
                             std::function<Outcome<T>(const QJsonObject&)> map)
{
    const QString what =
        QStringLiteral("Code runner: ") + request.value(QStringLiteral("action")).toString();
    RunnerCall* call = send(std::move(request));
    const bool hasCtx = ctx != nullptr;
    QPointer<QObject> guard(ctx);
    connect(call, &RunnerCall::completed, this,
            [call, hasCtx, guard, done, map](const QJsonObject& ev) {
                call->deleteLater();
                if (!hasCtx || guard)
                    done(map(ev));
            });
    connect(call, &RunnerCall::failed, this, [call, hasCtx, guard, done, what](ApiError e) {
        call->deleteLater();
        e.what = what;
        if (!hasCtx || guard)
            done(Outcome<T>(e));
    });
}

void CodeInterpreter::createContext(const QString& language, const QString& cwd, QObject* ctx,
                                    Done<CodeContext> done)
{
    QJsonObject req{{QStringLiteral("action"), QStringLiteral("create")},
                    {QStringLiteral("language"), languageName(language)}};
    if (!cwd.isEmpty())
        req.insert(QStringLiteral("cwd"), cwd);
    QPointer<CodeInterpreter> self(this);
    action<CodeContext>(req, ctx, std::move(done), [self](const QJsonObject& ev) {
        const CodeContext c = toContext(ev);
        if (self) {
            self->setState(c.id, c.language == QLatin1String("python") ? KernelState::Idle
                                                                       : KernelState::Unknown);
            emit self->contextsChanged();
        }
        return Outcome<CodeContext>(c);
    });
}

void CodeInterpreter::listContexts(QObject* ctx, Done<QList<CodeContext>> done)
{
    action<QList<CodeContext>>({{QStringLiteral("action"), QStringLiteral("list")}}, ctx,
                               std::move(done), [](const QJsonObject& ev) {
                                   QList<CodeContext> out;
                                   for (const QJsonValue& c :
                                        ev.value(QStringLiteral("data")).toArray())
                                       out.append(toContext(c.toObject()));
                                   return Outcome<QList<CodeContext>>(out);
                               });
}

void CodeInterpreter::restartContext(const QString& contextId, QObject* ctx, Done<Unit> done)
{
    setState(contextId, KernelState::Starting);
    QPointer<CodeInterpreter> self(this);
    auto wrapped = [self, contextId, done](Outcome<Unit> o) {
        if (self)
            self->setState(contextId, o.ok() ? KernelState::Idle : KernelState::Unknown);
        done(std::move(o));
    };
    action<Unit>({{QStringLiteral("action"), QStringLiteral("restart")},
                  {QStringLiteral("context"), contextId}},
                 ctx, wrapped, [](const QJsonObject&) { return Outcome<Unit>(Unit{}); });
}

void CodeInterpreter::deleteContext(const QString& contextId, QObject* ctx, Done<Unit> done)
{
    QPointer<CodeInterpreter> self(this);
    action<Unit>({{QStringLiteral("action"), QStringLiteral("delete")},
                  {QStringLiteral("context"), contextId}},
                 ctx, std::move(done), [self, contextId](const QJsonObject&) {
                     if (self) {
                         self->m_states.remove(contextId);
                         emit self->contextsChanged();
                     }
                     return Outcome<Unit>(Unit{});
                 });
}

void CodeInterpreter::interrupt(const QString& contextId, QObject* ctx, Done<bool> done)
{
    action<bool>({{QStringLiteral("action"), QStringLiteral("interrupt")},
                  {QStringLiteral("context"), contextId}},
                 ctx, std::move(done), [](const QJsonObject& ev) {
                     return Outcome<bool>(ev.value(QStringLiteral("interrupted")).toBool());
                 });
}

void CodeInterpreter::saveAllVariables(QObject* ctx, Done<QList<ContextVariables>> done)
{
    action<QList<ContextVariables>>(
        {{QStringLiteral("action"), QStringLiteral("save_all")}}, ctx, std::move(done),
        [](const QJsonObject& ev) {
            QList<ContextVariables> out;
            for (const QJsonValue& v : ev.value(QStringLiteral("contexts")).toArray()) {
                const QJsonObject o = v.toObject();
                out.append({o.value(QStringLiteral("id")).toString(), toReport(o),
                            o.value(QStringLiteral("error")).toString()});
            }
            return Outcome<QList<ContextVariables>>(out);
        });
}

namespace {

// Jupyter counts positions in code points, QString in UTF-16 units.
int toCodePoints(const QString& code, int index)
{
    return int(code.left(index).toUcs4().size());
}

int fromCodePoints(const QString& code, int points)
{
    int index = 0;
    for (int n = 0; n < points && index < code.size(); ++n)
        index += code.at(index).isHighSurrogate() && index + 1 < code.size() ? 2 : 1;
    return index;
}

QJsonObject kernelQuery(const char* action, const QString& contextId, const QString& language,
                        const QString& code, int cursor)
{
    QJsonObject req{{QStringLiteral("action"), QLatin1String(action)},
                    {QStringLiteral("code"), code},
                    {QStringLiteral("cursor_pos"),
                     toCodePoints(code, std::clamp(cursor, 0, int(code.size())))}};
    if (contextId.isEmpty())
        req.insert(QStringLiteral("language"), language);
    else
        req.insert(QStringLiteral("context"), contextId);
    return req;
}

} // namespace

void CodeInterpreter::complete(const QString& contextId, const QString& language,
                               const QString& code, int cursor, QObject* ctx,
                               Done<Completions> done)
{
    action<Completions>(
        kernelQuery("complete", contextId, language, code, cursor), ctx, std::move(done),
        [code](const QJsonObject& ev) {
            Completions c;
            c.cursorStart = fromCodePoints(code, ev.value(QStringLiteral("cursor_start")).toInt());
            c.cursorEnd = fromCodePoints(code, ev.value(QStringLiteral("cursor_end")).toInt());
            QHash<QString, QJsonObject> types;
            for (const QJsonValue& t : ev.value(QStringLiteral("types")).toArray())
                types.insert(t.toObject().value(QStringLiteral("text")).toString(), t.toObject());
            for (const QJsonValue& m : ev.value(QStringLiteral("matches")).toArray()) {
                const QJsonObject t = types.value(m.toString());
                c.matches.append({m.toString(), t.value(QStringLiteral("type")).toString(),
                                  t.value(QStringLiteral("signature")).toString()});
            }
            return Outcome<Completions>(c);
        });
}

void CodeInterpreter::inspect(const QString& contextId, const QString& language,
                              const QString& code, int cursor, QObject* ctx, Done<Inspection> done)
{
    action<Inspection>(kernelQuery("inspect", contextId, language, code, cursor), ctx,
                       std::move(done), [](const QJsonObject& ev) {
                           return Outcome<Inspection>(
                               Inspection{ev.value(QStringLiteral("found")).toBool(),
                                          ev.value(QStringLiteral("text")).toString(),
                                          ev.value(QStringLiteral("text_ansi")).toString()});
                       });
}

void CodeInterpreter::listVariables(const QString& contextId, const QString& language,
                                    const QString& name, QObject* ctx, Done<VariableListing> done)
{
    action<VariableListing>(
        variablesRequest(contextId, language, name), ctx, std::move(done),
        [](const QJsonObject& ev) { return Outcome<VariableListing>(toVariableListing(ev)); });
}

void CodeInterpreter::tableRows(const QString& contextId, const QJsonObject& query, QObject* ctx,
                                Done<QJsonObject> done)
{
    QJsonObject req = query;
    req.insert(QStringLiteral("action"), QStringLiteral("table_rows"));
    req.insert(QStringLiteral("context"), contextId);
    action<QJsonObject>(req, ctx, std::move(done),
                        [](const QJsonObject& ev) { return Outcome<QJsonObject>(ev); });
}

void CodeInterpreter::tableForVariable(const QString& contextId, const QString& language,
                                       const QString& name, QObject* ctx, Done<QJsonObject> done)
{
    QJsonObject req{{QStringLiteral("action"), QStringLiteral("table_for_variable")},
                    {QStringLiteral("name"), name}};
    if (contextId.isEmpty())
        req.insert(QStringLiteral("language"), language);
    else
        req.insert(QStringLiteral("context"), contextId);
    action<QJsonObject>(req, ctx, std::move(done),
                        [](const QJsonObject& ev) { return Outcome<QJsonObject>(ev); });
}

} // namespace lizard::client
