#pragma once
// The handle of an API call in flight (LizardApi's calls return one): what a view needs to
// cancel a call it started through a model, without seeing the API itself.

#include <QObject>

namespace lizard::client {

// A call in flight. It deletes itself after it finished (or was cancelled). If the context
// object passed to the call is destroyed first, the call is cancelled and its callback
// never runs.
// Details (client/pendingcallimpl.h): the call is a child of its context object (none when ctx
// is nullptr: the callback then always runs). cancel() stops the transfer at once; the callback
// then runs from the event loop with ApiError::Kind::Cancelled. Callbacks never run inside
// the call that started them, and may start, cancel or delete anything, including ctx.
class PendingCall : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    virtual void cancel() = 0;
signals:
    void finished();
};

} // namespace lizard::client
