#include "models/consolesession.h"

namespace lizard::models {

using client::ApiError;
using client::OutputLine;

ConsoleSession::ConsoleSession(client::LizardApi* api, QString sandboxId, QObject* parent)
    : QObject(parent), m_api(api), m_sandboxId(std::move(sandboxId))
{
    m_graceTimer.setSingleShot(true);
    connect(&m_graceTimer, &QTimer::timeout, this, &ConsoleSession::forceStop);
}

ConsoleSession::~ConsoleSession()
{
    if (m_stream != nullptr)
        m_stream->cancel(); // the server then stops the command
}

bool ConsoleSession::run(const QString& command)
{
    if (m_stream != nullptr || command.trimmed().isEmpty() || m_api == nullptr)
        return false;
    m_history.add(command);
    client::ExecOptions opts;
    opts.timeoutMs = 600000; // the API's maximum; Stop ends it earlier
    m_stream = m_api->execStream(m_sandboxId, command, opts);
    m_stream->setParent(this);
    m_pid = 0;
    if (!m_log.appendText("$ " + command) && !m_logBroken) {
        m_logBroken = true;
        emit logError(m_log.errorString());
    }
    connect(m_stream, &client::ExecStream::started, this, [this](int pid) { m_pid = pid; });
    connect(m_stream, &client::ExecStream::output, this, &ConsoleSession::onOutput);
    connect(m_stream, &client::ExecStream::exited, this, [this](int code) {
        m_log.appendText(QStringLiteral("[exit %1]").arg(code));
        finish();
        emit commandFinished(code);
    });
    connect(m_stream, &client::ExecStream::failed, this, [this](const ApiError& error) {
        const bool stopped = m_graceTimer.isActive() || error.kind == ApiError::Kind::Cancelled;
        finish();
        if (stopped)
            emit commandStopped();
        else
            emit commandFailed(error);
    });
    emit commandStarted(command);
    emit runningChanged(true);
    return true;
}

void ConsoleSession::onOutput(const QList<OutputLine>& lines)
{
    if (!m_log.append(lines) && !m_logBroken) {
        m_logBroken = true; // say it once, keep showing output
        emit logError(m_log.errorString());
    }
    emit output(lines);
}

void ConsoleSession::stop(int graceMs)
{
    if (m_stream == nullptr)
        return;
    if (m_pid <= 0 || m_api == nullptr) {
        forceStop();
        return;
    }
    m_graceTimer.start(graceMs);
    // The exit code (e.g. 143) arrives through the stream; if the signal call fails the
    // grace timer still ends the stream.
    m_api->signalProcess(m_sandboxId, m_pid, QStringLiteral("SIGTERM"), this, [](auto) {});
}

void ConsoleSession::forceStop()
{
    if (m_stream == nullptr)
        return;
    m_stream->disconnect(this); // cancel() may report Cancelled; we report Stopped ourselves
    m_stream->cancel();
    m_log.appendText(QStringLiteral("[stopped]"));
    finish();
    emit commandStopped();
}

void ConsoleSession::finish()
{
    m_graceTimer.stop();
    if (m_stream != nullptr) {
        m_stream->disconnect(this);
        m_stream->deleteLater();
        m_stream = nullptr;
    }
    m_pid = 0;
    emit runningChanged(false);
}

} // namespace lizard::models
