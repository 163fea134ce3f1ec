#pragma once
// Following a sandbox's activity log (GET /api/sandboxes/{id}/activity with Accept:
// text/event-stream, a lizard-local extension): the entries after `since`, then each new one
// as the server records it, until the sandbox ends.

#include "client/activitypage.h"
#include "client/types.h"

#include <QObject>

namespace lizard::client {

// Entries come in batches (one per network chunk), in seq order; a batch's lastSeq is the seq
// of its last entry (pass it as `since` to follow on). Then exactly one of ended (the server
// closed the stream: after the sandbox's `kill` entry, or a server shutting down cleanly) or
// failed: NotFound (404: the sandbox is not running, or the server has no activity log, the
// cloud), 501 ACTIVITY_DISABLED (lizard-local --no-activity), a Network error with code
// CONNECTION_LOST (the server went away or stalled: follow again from the last seq).
// cancel() closes the connection; failed(Cancelled) follows from the event loop. Slots may
// delete the stream.
class ActivityStream : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    virtual void cancel() = 0;
signals:
    void entries(const lizard::client::ActivityPage& batch);
    void ended();
    void failed(const lizard::client::ApiError& error);
};

} // namespace lizard::client
