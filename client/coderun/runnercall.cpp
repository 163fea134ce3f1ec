#include "client/coderun/runnercall.h"

namespace lizard::client {

RunnerCall::RunnerCall(QJsonObject request, QObject* parent)
    : QObject(parent), m_request(std::move(request))
{
}

double RunnerCall::timeoutS() const
{
    return m_request.value(QStringLiteral("timeout")).toDouble(60);
}

bool RunnerCall::isTerminal(const QString& type)
{
    return type == QLatin1String("done") || type == QLatin1String("context") ||
           type == QLatin1String("contexts") || type == QLatin1String("ok");
}

void RunnerCall::deliver(const QJsonObject& ev)
{
    if (m_ended)
        return;
    const QString type = ev.value(QStringLiteral("type")).toString();
    if (type == QLatin1String("fatal")) {
        fail(runnerError(ev.value(QStringLiteral("message")).toString()));
        return;
    }
    if (isTerminal(type)) {
        m_ended = true;
        emit completed(ev);
        return;
    }
    emit event(ev);
}

void RunnerCall::fail(const ApiError& error)
{
    if (m_ended)
        return;
    m_ended = true;
    emit failed(error);
}

ApiError runnerError(const QString& message, const QString& what)
{
    ApiError e;
    e.kind = ApiError::Kind::InvalidRequest;
    e.code = QStringLiteral("RUNNER");
    e.message = message;
    e.what = what;
    return e;
}

} // namespace lizard::client
