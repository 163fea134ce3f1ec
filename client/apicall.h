#pragma once
// Internal to the LizardApi implementation files (lizardapi*.cpp): start a call whose answer
// (error or body) is mapped to the caller's Outcome by a parse function.

#include "client/errormapping.h"
#include "client/lizardapi.h"
#include "client/pendingcallimpl.h"
#include "client/urlencoding.h"

namespace lizard::client::apicall {

template <class T>
using Done = LizardApi::Done<T>;

template <class T, class Parse>
PendingCall* startCall(CurlMulti* multi, HttpRequest request, const QString& what, QObject* ctx, Done<T> done,
                       Parse parse)
{
    return new PendingCallImpl(multi, std::move(request), ctx,
                               [what, done = std::move(done), parse](const HttpResponse& r) {
                                   if (const auto error = errorFromResponse(r, what)) {
                                       if (done)
                                           done(*error);
                                       return;
                                   }
                                   Outcome<T> outcome = parse(r.body, what);
                                   if (!outcome.ok()) {
                                       ApiError e = outcome.error();
                                       e.httpStatus = r.status;
                                       outcome = Outcome<T>(e);
                                   }
                                   if (done)
                                       done(std::move(outcome));
                               });
}

inline Outcome<Unit> noValue(const QByteArray&, const QString&) { return Unit{}; }
inline Outcome<QByteArray> rawBytes(const QByteArray& body, const QString&) { return body; }

// One encoded path segment.
inline QByteArray seg(const QString& value) { return encodeUriComponent(value); }

inline QByteArray sandboxPath(const QString& id, const QByteArray& rest = {})
{
    return "/api/sandboxes/" + seg(id) + rest;
}

} // namespace lizard::client::apicall
