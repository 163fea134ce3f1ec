#include "client/coderun/runnercall.h"

#include "client/coderun/runnerevents.h"

namespace lizard::client {

RunnerCall::RunnerCall(nlohmann::json request, QObject* parent)
    : QObject(parent), m_request(std::move(request))
{
}

QString RunnerCall::action() const
{
    return stringField(m_request, "action");
}

double RunnerCall::timeoutS() const
{
    const auto it = m_request.find("timeout");
    return it != m_request.end() && it->is_number() ? it->get<double>() : 60;
}

bool RunnerCall::isTerminal(const QString& type)
{
    return type == QLatin1String("done") || type == QLatin1String("context") ||
           type == QLatin1String("contexts") || type == QLatin1String("ok");
}

void RunnerCall::deliver(const nlohmann::json& ev)
{
    if (m_ended)
        return;
    const QString type = runnerEventType(ev);
    if (type == QLatin1String("fatal")) {
        fail(runnerError(stringField(ev, "message")));
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
