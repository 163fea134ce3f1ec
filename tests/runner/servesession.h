#pragma once
// Drives the runner's persistent "serve" mode on this host: requests are JSON files dropped into
// its inbox folder (temp file + rename, as the server's files API writes them), answers are the
// events it prints, each carrying the request id.

#include "runner/eventdecoder.h"

#include <QHash>
#include <QJsonObject>
#include <QProcess>
#include <QString>

namespace lizard::test {

class RunnerHost;

class ServeSession
{
public:
    explicit ServeSession(const RunnerHost& host);
    ~ServeSession();

    // Starts `serve` with extra arguments and waits for its "ready" event. False with error().
    bool start(const QJsonObject& extra = {});
    QJsonObject readyEvent() const { return m_ready; }
    QString error() const { return m_error; }
    QProcess& process() { return m_proc; }

    QString submit(QJsonObject request); // writes the request file; returns its req id
    RunnerOutcome waitFor(const QString& req, int timeoutMs = 90000); // until its terminal event
    RunnerOutcome request(const QJsonObject& request, int timeoutMs = 90000);
    bool waitForEvent(const QString& req, const QString& type, int timeoutMs); // leaves it queued
    bool waitForExit(int timeoutMs);

private:
    bool readSome(int timeoutMs);

    const RunnerHost& m_host;
    QProcess m_proc;
    EventDecoder m_decoder;
    QByteArray m_buffer;
    QHash<QString, QList<QJsonObject>> m_events; // by req
    QJsonObject m_ready;
    QString m_error;
    int m_next = 0;
};

} // namespace lizard::test
