#include "client/coderun/coderun.h"

#include "client/coderun/runnercall.h"
#include "client/coderun/runnerevents.h"

namespace lizard::client {

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

void CodeRun::onEvent(const nlohmann::json& ev)
{
    if (m_ended)
        return;
    const Outcome<Unit> read = readRunnerEvent<Unit>(ev, [this](const JsonReader& r) {
        handle(r);
        return Outcome<Unit>(Unit{});
    });
    if (!read)
        onFailed(read.error());
}

void CodeRun::handle(const JsonReader& ev)
{
    const QString type = ev.string("type");
    if (type == QLatin1String("stdout")) {
        const QString data = ev.string("data");
        m_execution.stdoutText += data;
        emit stdoutReceived(data);
    } else if (type == QLatin1String("stderr")) {
        const QString data = ev.string("data");
        m_execution.stderrText += data;
        emit stderrReceived(data);
    } else if (type == QLatin1String("result")) {
        const ExecutionResult r = resultFromEvent(ev);
        m_execution.results.append(r);
        emit resultReceived(r);
    } else if (type == QLatin1String("update_display")) {
        const ExecutionResult r = resultFromEvent(ev);
        for (ExecutionResult& old : m_execution.results)
            if (!r.displayId.isEmpty() && old.displayId == r.displayId)
                old = r;
        emit displayUpdated(r);
    } else if (type == QLatin1String("clear_output")) {
        emit outputCleared(ev.boolean("wait", false));
    } else if (type == QLatin1String("error")) {
        m_execution.error = errorFromEvent(ev);
        emit errorReceived(*m_execution.error);
    } else if (type == QLatin1String("notice")) {
        const QString message = ev.string("message");
        m_execution.notices.append(message);
        emit noticeReceived(message);
    } else if (type == QLatin1String("done")) {
        // Read before the run ends: a malformed count fails the run instead.
        const int count = int(ev.integer("execution_count"));
        m_ended = true;
        m_execution.executionCount = count;
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
