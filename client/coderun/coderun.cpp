#include "client/coderun/coderun.h"

#include "client/coderun/runnercall.h"

#include <QJsonArray>

namespace lizard::client {

namespace {

ExecutionResult toResult(const QJsonObject& ev)
{
    ExecutionResult r;
    r.mime = ev.value(QStringLiteral("mime")).toString();
    const QJsonObject bundle = ev.value(QStringLiteral("bundle")).toObject();
    for (auto it = bundle.begin(); it != bundle.end(); ++it)
        r.bundle.insert(it.key(), it.value().toString());
    if (!r.bundle.contains(r.mime)) // the SDK's runner sends only mime + data
        r.bundle.insert(r.mime, ev.value(QStringLiteral("data")).toString());
    r.metadata = ev.value(QStringLiteral("metadata")).toObject();
    r.isDisplay = ev.value(QStringLiteral("display")).toBool(true);
    const QJsonValue count = ev.value(QStringLiteral("execution_count"));
    if (count.isDouble())
        r.executionCount = count.toInt();
    r.displayId = ev.value(QStringLiteral("display_id")).toString();
    return r;
}

ExecutionError toError(const QJsonObject& ev)
{
    ExecutionError e;
    e.name = ev.value(QStringLiteral("name")).toString();
    e.message = ev.value(QStringLiteral("message")).toString();
    e.traceback = ev.value(QStringLiteral("traceback")).toString();
    e.tracebackAnsi = ev.value(QStringLiteral("traceback_ansi")).toString(e.traceback);
    return e;
}

} // namespace

CodeRun::CodeRun(RunnerCall* call, QString contextId, std::function<void()> interrupter,
                 QObject* parent)
    : QObject(parent), m_contextId(std::move(contextId)), m_interrupter(std::move(interrupter))
{
    call->setParent(this);
    connect(call, &RunnerCall::event, this, &CodeRun::onEvent);
    connect(call, &RunnerCall::completed, this, &CodeRun::onEvent);
    connect(call, &RunnerCall::failed, this, &CodeRun::onFailed);
}

void CodeRun::interrupt()
{
    if (!m_ended && m_interrupter)
        m_interrupter();
}

void CodeRun::onEvent(const QJsonObject& ev)
{
    if (m_ended)
        return;
    const QString type = ev.value(QStringLiteral("type")).toString();
    const QString data = ev.value(QStringLiteral("data")).toString();
    if (type == QLatin1String("stdout")) {
        m_execution.stdoutText += data;
        emit stdoutReceived(data);
    } else if (type == QLatin1String("stderr")) {
        m_execution.stderrText += data;
        emit stderrReceived(data);
    } else if (type == QLatin1String("result")) {
        const ExecutionResult r = toResult(ev);
        m_execution.results.append(r);
        emit resultReceived(r);
    } else if (type == QLatin1String("update_display")) {
        const ExecutionResult r = toResult(ev);
        for (ExecutionResult& old : m_execution.results)
            if (!r.displayId.isEmpty() && old.displayId == r.displayId)
                old = r;
        emit displayUpdated(r);
    } else if (type == QLatin1String("clear_output")) {
        emit outputCleared(ev.value(QStringLiteral("wait")).toBool());
    } else if (type == QLatin1String("error")) {
        m_execution.error = toError(ev);
        emit errorReceived(*m_execution.error);
    } else if (type == QLatin1String("notice")) {
        const QString message = ev.value(QStringLiteral("message")).toString();
        m_execution.notices.append(message);
        emit noticeReceived(message);
    } else if (type == QLatin1String("done")) {
        m_ended = true;
        m_execution.executionCount = ev.value(QStringLiteral("execution_count")).toInt();
        emit finished(m_execution);
    }
}

void CodeRun::onFailed(const ApiError& error)
{
    if (m_ended)
        return;
    m_ended = true;
    m_failure = error;
    emit failed(error);
}

} // namespace lizard::client
