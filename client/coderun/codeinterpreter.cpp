#include "client/coderun/codeinterpreter.h"

#include "client/coderun/oneshotexec.h"
#include "client/coderun/runnercall.h"
#include "client/coderun/runnerevents.h"
#include "client/coderun/servechannel.h"
#include "client/lizardapi.h"

#include <QDateTime>
#include <QTimer>

namespace lizard::client {

using nlohmann::json;

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

CodeContext toContext(const JsonReader& o)
{
    return CodeContext{o.string("id"), o.string("language"), o.string("cwd")};
}

// Each item of the array `key` (absent: none), read as an object.
template <class Item> void forEachObject(const JsonReader& o, const char* key, Item item)
{
    const json* list = o.find(key);
    if (list == nullptr)
        return;
    if (!list->is_array())
        o.fail(key, "an array");
    for (const json& e : *list)
        item(JsonReader(e, QString::fromLatin1(key)));
}

VariablesReport toReport(const JsonReader& o)
{
    VariablesReport r;
    r.names = o.stringList(o.has("loaded") ? "loaded" : "saved");
    forEachObject(o, "skipped", [&r](const JsonReader& s) {
        r.skipped.append({s.string("name"), s.string("reason")});
    });
    return r;
}

// A context named by id, or the default context of a language.
void setContext(json& req, const QString& contextId, const QString& language)
{
    if (contextId.isEmpty())
        req["language"] = language.toStdString();
    else
        req["context"] = contextId.toStdString();
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

RunnerCall* CodeInterpreter::send(json request)
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
    json req{
        {"action", "run"},
        {"code", code.toStdString()},
        {"timeout", runnerNumber(std::min(std::max(options.timeoutS, 0.001), kMaxRunTimeoutS))}};
    const QString language = languageName(options.language);
    QString contextId = options.contextId;
    setContext(req, contextId, language);
    if (contextId.isEmpty()) {
        contextId = QStringLiteral("default-") + language;
        if (!options.cwd.isEmpty())
            req["cwd"] = options.cwd.toStdString();
    }
    if (!options.envs.isEmpty()) {
        json envs = json::object();
        for (auto it = options.envs.begin(); it != options.envs.end(); ++it)
            envs[it.key().toStdString()] = it.value().toStdString();
        req["envs"] = envs;
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

CodeRun* CodeInterpreter::startKernel(const QString& contextId, const QString& language)
{
    RunCodeOptions options;
    options.contextId = contextId;
    options.language = language;
    options.timeoutS = 120; // a kernel's first start in a busy sandbox, imports included
    CodeRun* run = runCode(QString(), options);
    const QString id = run->contextId();
    setState(id, KernelState::Starting);
    connect(run, &CodeRun::finished, this, [this, id, run](const Execution& ex) {
        if (ex.error && ex.error->name != QLatin1String("KernelDied"))
            setState(id, KernelState::Unknown);
        run->deleteLater();
    });
    connect(run, &CodeRun::failed, run, &QObject::deleteLater);
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
void CodeInterpreter::action(json request, QObject* ctx, Done<T> done,
                             std::function<Outcome<T>(const JsonReader&)> map)
{
    const QString what = QStringLiteral("Code runner: ") + stringField(request, "action");
    RunnerCall* call = send(std::move(request));
    const bool hasCtx = ctx != nullptr;
    QPointer<QObject> guard(ctx);
    connect(call, &RunnerCall::completed, this,
            [call, hasCtx, guard, done, map, what](const json& ev) {
                call->deleteLater();
                if (hasCtx && !guard)
                    return;
                Outcome<T> answer = readRunnerEvent<T>(ev, map);
                if (answer) {
                    done(std::move(answer));
                    return;
                }
                ApiError e = answer.error();
                e.what = what;
                done(Outcome<T>(e));
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
    json req{{"action", "create"}, {"language", languageName(language).toStdString()}};
    if (!cwd.isEmpty())
        req["cwd"] = cwd.toStdString();
    QPointer<CodeInterpreter> self(this);
    action<CodeContext>(req, ctx, std::move(done), [self](const JsonReader& ev) {
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
    action<QList<CodeContext>>(
        {{"action", "list"}}, ctx, std::move(done), [](const JsonReader& ev) {
            QList<CodeContext> out;
            forEachObject(ev, "data", [&out](const JsonReader& c) { out.append(toContext(c)); });
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
    action<Unit>({{"action", "restart"}, {"context", contextId.toStdString()}}, ctx, wrapped,
                 [](const JsonReader&) { return Outcome<Unit>(Unit{}); });
}

void CodeInterpreter::deleteContext(const QString& contextId, QObject* ctx, Done<Unit> done)
{
    QPointer<CodeInterpreter> self(this);
    action<Unit>({{"action", "delete"}, {"context", contextId.toStdString()}}, ctx, std::move(done),
                 [self, contextId](const JsonReader&) {
                     if (self) {
                         self->m_states.remove(contextId);
                         emit self->contextsChanged();
                     }
                     return Outcome<Unit>(Unit{});
                 });
}

void CodeInterpreter::interrupt(const QString& contextId, QObject* ctx, Done<bool> done)
{
    action<bool>(
        {{"action", "interrupt"}, {"context", contextId.toStdString()}}, ctx, std::move(done),
        [](const JsonReader& ev) { return Outcome<bool>(ev.boolean("interrupted", false)); });
}

void CodeInterpreter::saveAllVariables(QObject* ctx, Done<QList<ContextVariables>> done)
{
    action<QList<ContextVariables>>(
        {{"action", "save_all"}}, ctx, std::move(done), [](const JsonReader& ev) {
            QList<ContextVariables> out;
            forEachObject(ev, "contexts", [&out](const JsonReader& o) {
                out.append({o.string("id"), toReport(o), o.string("error")});
            });
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

json kernelQuery(const char* action, const QString& contextId, const QString& language,
                 const QString& code, int cursor)
{
    json req{{"action", action},
             {"code", code.toStdString()},
             {"cursor_pos", toCodePoints(code, std::clamp(cursor, 0, int(code.size())))}};
    setContext(req, contextId, language);
    return req;
}

} // namespace

void CodeInterpreter::complete(const QString& contextId, const QString& language,
                               const QString& code, int cursor, QObject* ctx,
                               Done<Completions> done)
{
    action<Completions>(
        kernelQuery("complete", contextId, language, code, cursor), ctx, std::move(done),
        [code](const JsonReader& ev) {
            Completions c;
            c.cursorStart = fromCodePoints(code, int(ev.integer("cursor_start")));
            c.cursorEnd = fromCodePoints(code, int(ev.integer("cursor_end")));
            QHash<QString, QPair<QString, QString>> types; // text -> type, signature
            forEachObject(ev, "types", [&types](const JsonReader& t) {
                types.insert(t.string("text"), {t.string("type"), t.string("signature")});
            });
            for (const QString& m : ev.stringList("matches"))
                c.matches.append({m, types.value(m).first, types.value(m).second});
            return Outcome<Completions>(c);
        });
}

void CodeInterpreter::inspect(const QString& contextId, const QString& language,
                              const QString& code, int cursor, QObject* ctx, Done<Inspection> done)
{
    action<Inspection>(kernelQuery("inspect", contextId, language, code, cursor), ctx,
                       std::move(done), [](const JsonReader& ev) {
                           return Outcome<Inspection>(Inspection{ev.boolean("found", false),
                                                                 ev.string("text"),
                                                                 ev.string("text_ansi")});
                       });
}

void CodeInterpreter::listVariables(const QString& contextId, const QString& language,
                                    const QString& name, QObject* ctx, Done<VariableListing> done)
{
    action<VariableListing>(
        variablesRequest(contextId, language, name), ctx, std::move(done),
        [](const JsonReader& ev) { return Outcome<VariableListing>(toVariableListing(ev)); });
}

void CodeInterpreter::tableRows(const QString& contextId, const TableRowsQuery& query, QObject* ctx,
                                Done<TableRows> done)
{
    json req{{"action", "table_rows"},
             {"context", contextId.toStdString()},
             {"handle", query.handle.toStdString()},
             {"start", query.start},
             {"count", query.count}};
    if (query.column) {
        req["column"] = *query.column;
        req["ascending"] = query.ascending;
    }
    action<TableRows>(req, ctx, std::move(done), [](const JsonReader& ev) {
        QString why;
        std::optional<TableRows> rows = tableRowsFromJson(ev.value(), &why);
        return rows ? Outcome<TableRows>(std::move(*rows))
                    : Outcome<TableRows>(runnerError(QStringLiteral("malformed table: ") + why));
    });
}

void CodeInterpreter::tableForVariable(const QString& contextId, const QString& language,
                                       const QString& name, QObject* ctx, Done<json> done)
{
    json req{{"action", "table_for_variable"}, {"name", name.toStdString()}};
    setContext(req, contextId, language);
    action<json>(req, ctx, std::move(done),
                 [](const JsonReader& ev) { return Outcome<json>(ev.value()); });
}

} // namespace lizard::client
