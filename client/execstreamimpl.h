#pragma once
// The ExecStream behind LizardApi::execStream: reads the exec SSE answer with SseParser and
// turns its JSON events ({pid}, {stream,line}, {exitCode}, or an error) into signals. Output
// comes in one batch per chunk received from the network, never one signal per line.
// A stalled connection (client/keepalivewatch.h) fails with CONNECTION_LOST.

#include "client/curltransfer.h"
#include "client/keepalivewatch.h"
#include "client/lizardapi.h"
#include "client/sseparser.h"

#include <memory>

namespace lizard::client {

class ExecStreamImpl : public ExecStream
{
    Q_OBJECT
public:
    ExecStreamImpl(CurlMulti* multi, HttpRequest request, QString what, QObject* parent = nullptr);
    ~ExecStreamImpl() override;

    // Closes the connection (the server then stops the command); failed(Cancelled) follows
    // from the event loop unless the stream had already ended.
    void cancel() override;

private:
    void onData(const QByteArray& chunk);
    void onFinished(const HttpResponse& response);
    // Each returns false when a slot destroyed this object.
    bool handleEvents(const QList<SseEvent>& events);
    bool flush(QList<OutputLine>& batch);
    bool finishWith(const ApiError& error);
    bool finishPlainAnswer(const QByteArray& body);
    void failLater(const ApiError& error);

    std::unique_ptr<CurlTransfer> m_transfer;
    SseParser m_parser;
    QString m_what;
    QByteArray m_plainBody; // a server that ignored Accept: text/event-stream
    bool m_isEventStream = true;
    bool m_checkedType = false;
    bool m_ended = false; // exited or failed was emitted (or is queued)
    std::unique_ptr<KeepaliveWatch> m_stallWatch;
};

} // namespace lizard::client
