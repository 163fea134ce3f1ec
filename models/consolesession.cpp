#include "models/consolesession.h"

#include "client/lizardapi.h"

#include <QUrl>
#include <cstring>

namespace lizard::models {

using client::ApiError;
using client::OutputLine;

namespace {
constexpr int kTimeoutMs = 600000; // the API's maximum; Stop ends it earlier

QString serverName(const client::LizardApi* api)
{
    const QString host = api ? QUrl(api->endpoint().baseUrl).host() : QString();
    const bool local = host == u"127.0.0.1" || host == u"localhost" || host == u"::1";
    return local            ? QStringLiteral("lizard-local")
           : host.isEmpty() ? QStringLiteral("the server")
                            : host;
}
} // namespace

QString ConsoleSession::exitText(const Exit& exit, int timeoutS)
{
    if (exit.timedOut)
        return QStringLiteral("[timed out after %1 s: killed (exit %2)]")
            .arg(timeoutS)
            .arg(exit.code);
    if (exit.oomKilled)
        return QStringLiteral("[out of memory: killed by the sandbox's OOM killer (exit %1)]")
            .arg(exit.code);
    if (exit.stoppedByUser)
        return QStringLiteral("[stopped (exit %1)]").arg(exit.code);
    const int sig = exit.code - 128; // how a shell reports a child killed by a signal
    if (exit.code > 128 && sig < 65) {
        const char* abbrev = sigabbrev_np(sig);
        const QString name = abbrev ? QStringLiteral("SIG") + QString::fromLatin1(abbrev)
                                    : QStringLiteral("signal %1").arg(sig);
        return QStringLiteral("[killed by %1 (exit %2)]").arg(name).arg(exit.code);
    }
    return QStringLiteral("[exit %1]").arg(exit.code);
}

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
    opts.timeoutMs = kTimeoutMs;
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
        setEnding(
            exitText({code, m_stream->timedOut(), m_stream->oomKilled(), m_graceTimer.isActive()},
                     kTimeoutMs / 1000));
        finish();
        emit commandFinished(code);
    });
    connect(m_stream, &client::ExecStream::failed, this, [this](const ApiError& error) {
        const bool stopped = m_graceTimer.isActive() || error.kind == ApiError::Kind::Cancelled;
        if (stopped)
            setEnding(QStringLiteral("[stopped]"));
        else if (error.kind == ApiError::Kind::Network &&
                 error.code == QLatin1String("CONNECTION_LOST"))
            setEnding(
                QStringLiteral("[connection to %1 lost: the command may or may not have finished]")
                    .arg(serverName(m_api)));
        else if (error.kind == ApiError::Kind::Network)
            setEnding(QStringLiteral("[could not reach %1: the command did not run]")
                          .arg(serverName(m_api)));
        else
            setEnding(QStringLiteral("[failed: %1]").arg(error.toDisplayString()));
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
    setEnding(QStringLiteral("[stopped]"));
    finish();
    emit commandStopped();
}

void ConsoleSession::setEnding(const QString& text)
{
    m_ending = text;
    m_log.appendText(text);
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
