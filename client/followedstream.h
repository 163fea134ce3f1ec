#pragma once
// What the exec, log and activity streams share: the transfer of a followed answer, the
// keep-alive check that tells a stalled connection from a quiet one, and the rule that a stream
// ends once: an answer's error, a lost or stalled connection, a cancel, or the owner's own end
// (exited, ended). The owner turns the bytes into its signals and emits its own failed() through
// emitFailed; FollowedStream decides when.

#include "client/curltransfer.h"
#include "client/keepalivewatch.h"

#include <QPointer>
#include <functional>
#include <memory>

namespace lizard::client {

class CurlMulti;

class FollowedStream
{
public:
    struct Hooks
    {
        CurlTransfer::DataHandler data;                    // bytes of the answer as they come
        std::function<void(const HttpResponse&)> finished; // the answer is complete, or broke
        std::function<void(const ApiError&)> emitFailed;   // the owner's failed(error)
    };
    // Starts the transfer. `owner` holds this object; `watchKeepalive`: a server that promised
    // keep-alives and went silent ends the stream with CONNECTION_LOST.
    FollowedStream(QObject* owner, CurlMulti* multi, HttpRequest request, QString what, Hooks hooks,
                   bool watchKeepalive);
    ~FollowedStream();

    const QString& what() const { return m_what; }
    const HttpResponse& response() const { return m_transfer->response(); }
    bool ended() const { return m_ended; }

    void dataArrived(); // the connection is alive
    void markEnded();   // the owner reported its own end
    void cancel();      // closes the connection; failed(Cancelled) follows unless already ended
    // failed(error) from the event loop, once, unless already ended.
    void failLater(const ApiError& error);
    // Ends now: closes the connection and emits failed(error). False when a slot destroyed the
    // owner (and so this object).
    bool finishWith(const ApiError& error);

    // An error answer without an HTTP status whose connection broke after it was made: the
    // server may have taken the request, so it is CONNECTION_LOST, not "could not connect".
    static void markConnectionLost(ApiError& error, const HttpResponse& response);

private:
    QObject* m_owner;
    QString m_what;
    std::function<void(const ApiError&)> m_emitFailed;
    bool m_ended = false;
    std::unique_ptr<CurlTransfer> m_transfer;
    std::unique_ptr<KeepaliveWatch> m_stallWatch;
};

} // namespace lizard::client
