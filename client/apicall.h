#pragma once
// Internal to the LizardApi implementation files (lizardapi*.cpp): start a call whose answer
// (error or body) is mapped to the caller's Outcome by a parse function.

#include "client/errormapping.h"
#include "client/lizardapi.h"
#include "client/pendingcallimpl.h"
#include "client/urlencoding.h"

namespace lizard::client::apicall {

// The caller's Outcome for an answer: the API's error, or what parse makes of the body.
template <class T, class Parse>
Outcome<T> mapAnswer(const HttpResponse& r, const QString& what, const Parse& parse)
{
    if (auto error = errorFromResponse(r, what))
        return Outcome<T>(std::move(*error));
    Outcome<T> outcome = parse(r.body, what);
    if (!outcome.ok()) {
        ApiError e = outcome.error();
        e.httpStatus = r.status;
        outcome = Outcome<T>(e);
    }
    return outcome;
}

template <class T, class Parse>
PendingCall* startCall(CurlMulti* multi, HttpRequest request, const QString& what, QObject* ctx,
                       Done<T> done, Parse parse)
{
    return new PendingCallImpl(multi, std::move(request), ctx,
                               [what, done = std::move(done), parse](const HttpResponse& r) {
                                   Outcome<T> outcome = mapAnswer<T>(r, what, parse);
                                   if (done)
                                       done(std::move(outcome));
                               });
}

// startCall for answers that can be large (a directory listing): the body is parsed on a pool
// thread so the event loop keeps running meanwhile.
template <class T, class Parse>
PendingCall* startCallParsedOffThread(CurlMulti* multi, HttpRequest request, const QString& what,
                                      QObject* ctx, Done<T> done, Parse parse)
{
    return new PendingCallImpl(
        multi, std::move(request), ctx,
        [what, parse](const HttpResponse& r) { return std::any(mapAnswer<T>(r, what, parse)); },
        [what, done = std::move(done), parse](const HttpResponse& r, std::any prepared) {
            Outcome<T> outcome = prepared.has_value()
                                     ? std::any_cast<Outcome<T>>(std::move(prepared))
                                     : mapAnswer<T>(r, what, parse);
            if (done)
                done(std::move(outcome));
        });
}

inline Outcome<Unit> noValue(const QByteArray&, const QString&)
{
    return Unit{};
}
inline Outcome<QByteArray> rawBytes(const QByteArray& body, const QString&)
{
    return body;
}

// One encoded path segment.
inline QByteArray seg(const QString& value)
{
    return encodeUriComponent(value);
}

inline QByteArray sandboxPath(const QString& id, const QByteArray& rest = {})
{
    return "/api/sandboxes/" + seg(id) + rest;
}

} // namespace lizard::client::apicall
