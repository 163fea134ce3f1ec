#pragma once
// Following a sandbox's system log (GET /api/sandboxes/{id}/logs, Server-Sent Events): the
// last lines first, then each new one as the server writes it, until the sandbox ends.

#include "client/types.h"

#include <QList>
#include <QObject>
#include <QString>

namespace lizard::client {

struct SandboxLogLine
{
    qint64 seq = 0; // the server's sequence number (the SSE id); 0 if it sent none
    qint64 ts = 0;  // unix ms
    QString level;  // "info", "warn", "error", "debug"
    QString source; // "lifecycle", "agent", "kernel" (lizard-local); may be empty
    QString message;
};

// Lines come in batches (one per network chunk), in order. Then exactly one of ended (the
// server closed the stream: the sandbox ended) or failed. A server without logs (the Lizard
// cloud answers 501) fails with code LOGS_UNAVAILABLE and a message that says so; a sandbox
// that does not exist fails with NotFound. cancel() closes the connection; failed(Cancelled)
// follows from the event loop. Slots may delete the stream.
class LogStream : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    virtual void cancel() = 0;
signals:
    void lines(const QList<lizard::client::SandboxLogLine>& lines);
    void ended();
    void failed(const lizard::client::ApiError& error);
};

} // namespace lizard::client
