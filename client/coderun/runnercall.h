#pragma once
// One request to the in-sandbox runner (internal to client/coderun): whichever channel carries
// it hands it the runner's events; it ends with the request's terminal event (done, context,
// contexts, ok) or a failure (a `fatal` event, or the channel breaking off). Signals after the
// end are never emitted.

#include "client/types.h"

#include <QObject>
#include <nlohmann/json.hpp>

namespace lizard::client {

class RunnerCall : public QObject
{
    Q_OBJECT
public:
    RunnerCall(nlohmann::json request, QObject* parent = nullptr);

    const nlohmann::json& request() const { return m_request; }
    QString action() const;
    // The request's timeout in seconds (runs), for the channel's own time limits.
    double timeoutS() const;
    bool isEnded() const { return m_ended; }

    void deliver(const nlohmann::json& event); // any event of this request
    void fail(const ApiError& error);

    static bool isTerminal(const QString& type);

signals:
    void event(const nlohmann::json& event);     // everything before the end
    void completed(const nlohmann::json& event); // the terminal event
    void failed(const lizard::client::ApiError& error);

private:
    nlohmann::json m_request;
    bool m_ended = false;
};

// ApiError for something the runner reported or that broke between us and it.
ApiError runnerError(const QString& message, const QString& what = QStringLiteral("Run code"));

} // namespace lizard::client
