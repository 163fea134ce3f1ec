#pragma once
// The ExecStream behind LizardApi::execStream: reads the exec SSE answer with SseParser and
// turns its JSON events ({pid}, {stream,line}, {exitCode}, or an error) into signals. Output
// comes in one batch per chunk received from the network, never one signal per line.
// A stalled connection (client/keepalivewatch.h) fails with CONNECTION_LOST.

#include "client/followedstream.h"
#include "client/lizardapi.h"
#include "client/sseparser.h"

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
    bool finishPlainAnswer(const QByteArray& body);

    SseParser m_parser;
    QByteArray m_plainBody; // a server that ignored Accept: text/event-stream
    bool m_isEventStream = true;
    bool m_checkedType = false;
    FollowedStream m_stream; // last: it starts the transfer, whose handlers use the above
};

} // namespace lizard::client
