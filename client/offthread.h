#pragma once
// Runs work on a pool thread and hands its result to then() on the calling thread, unless the
// context object is destroyed first (then the result is dropped there, on the calling thread).
// For CPU work on large answers (parsing a 10,000-entry listing, sorting it) that would
// otherwise stall the event loop. work must not touch objects that live on the calling thread.

#include <QMetaObject>
#include <QObject>
#include <QPointer>
#include <QThreadPool>
#include <functional>
#include <utility>

namespace lizard::client {

template <class R, class Work, class Then> void runOffThread(QObject* ctx, Work work, Then then)
{
    // The relay lives on the calling thread until the result reaches it, whatever happens to
    // ctx meanwhile, so the pool thread always has a live object to post to.
    auto* relay = new QObject;
    QPointer<QObject> guard(ctx);
    QThreadPool::globalInstance()->start([relay, guard = std::move(guard), work = std::move(work),
                                          then = std::move(then)]() mutable {
        R result = work();
        QMetaObject::invokeMethod(
            relay,
            [relay, guard = std::move(guard), then = std::move(then),
             result = std::move(result)]() mutable {
                relay->deleteLater();
                if (guard != nullptr)
                    then(std::move(result));
            },
            Qt::QueuedConnection);
    });
}

} // namespace lizard::client
