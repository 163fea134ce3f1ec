#include "runner/servesession.h"

#include "runner/runnerhost.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>

namespace lizard::test {

ServeSession::ServeSession(const RunnerHost& host) : m_host(host) {}

ServeSession::~ServeSession()
{
    if (m_proc.state() != QProcess::NotRunning) {
        m_proc.terminate();
        if (!m_proc.waitForFinished(5000)) {
            m_proc.kill();
            m_proc.waitForFinished(5000);
        }
    }
}

bool ServeSession::start(const QJsonObject& extra)
{
    QJsonObject args = extra;
    args["action"] = "serve";
    m_proc.setProcessEnvironment(m_host.environment());
    m_proc.start(RunnerHost::plainPython(),
                 {RunnerHost::script(), QString::fromLatin1(RunnerHost::encodeArgs(args))});
    const QDeadlineTimer deadline(30000);
    while (!deadline.hasExpired()) {
        if (m_events.contains(QString()) && !m_events[QString()].isEmpty()) {
            m_ready = m_events[QString()].takeFirst();
            if (m_ready.value("type").toString() == "ready")
                return true;
            m_error = "first event is not ready: " +
                      QJsonDocument(m_ready).toJson(QJsonDocument::Compact);
            return false;
        }
        if (!readSome(static_cast<int>(deadline.remainingTime())))
            break;
    }
    m_error = "serve did not get ready: " + QString::fromUtf8(m_proc.readAllStandardError());
    return false;
}

QString ServeSession::submit(QJsonObject request)
{
    if (!request.contains("req"))
        request["req"] = QString("t%1").arg(++m_next);
    // Never let a test create the runner's default /home/user on the host.
    const QString action = request.value("action").toString();
    if ((action == "create" || action == "run") && !request.contains("cwd"))
        request["cwd"] = m_host.cwd();
    const QString req = request.value("req").toString();
    const QString inbox = m_ready.value("inbox").toString();
    const QString tmp = inbox + "/.incoming-" + req;
    QFile f(tmp);
    if (f.open(QIODevice::WriteOnly)) {
        f.write(QJsonDocument(request).toJson(QJsonDocument::Compact));
        f.close();
        QFile::rename(tmp, inbox + "/req-" + req + ".json");
    }
    return req;
}

RunnerOutcome ServeSession::waitFor(const QString& req, int timeoutMs)
{
    RunnerOutcome outcome;
    QElapsedTimer clock;
    clock.start();
    const QDeadlineTimer deadline(timeoutMs);
    while (true) {
        QList<QJsonObject>& pending = m_events[req];
        while (!pending.isEmpty()) {
            const QJsonObject event = pending.takeFirst();
            outcome.events.append(event);
            if (isTerminalEvent(event)) {
                outcome.finished = true;
                outcome.elapsedMs = clock.elapsed();
                outcome.partLines = m_decoder.partLines();
                return outcome;
            }
        }
        if (deadline.hasExpired() || !readSome(static_cast<int>(deadline.remainingTime())))
            break;
    }
    outcome.elapsedMs = clock.elapsed();
    outcome.stderrText = m_proc.readAllStandardError();
    return outcome;
}

RunnerOutcome ServeSession::request(const QJsonObject& request, int timeoutMs)
{
    return waitFor(submit(request), timeoutMs);
}

bool ServeSession::waitForEvent(const QString& req, const QString& type, int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    while (true) {
        for (const QJsonObject& event : m_events.value(req)) {
            if (event.value("type").toString() == type)
                return true;
        }
        if (deadline.hasExpired() || !readSome(static_cast<int>(deadline.remainingTime())))
            return false;
    }
}

bool ServeSession::waitForExit(int timeoutMs)
{
    return m_proc.state() == QProcess::NotRunning || m_proc.waitForFinished(timeoutMs);
}

bool ServeSession::readSome(int timeoutMs)
{
    if (m_proc.bytesAvailable() == 0 && !m_proc.waitForReadyRead(qMax(1, timeoutMs)))
        return false;
    m_buffer += m_proc.readAllStandardOutput();
    qsizetype newline;
    while ((newline = m_buffer.indexOf('\n')) >= 0) {
        const QByteArray line = m_buffer.left(newline);
        m_buffer.remove(0, newline + 1);
        if (auto event = m_decoder.feed(line))
            m_events[event->value("req").toString()].append(*event);
    }
    return true;
}

} // namespace lizard::test
