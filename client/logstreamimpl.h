#pragma once
// The LogStream behind LizardApi::followLogs: SseParser over the answer, `log` events → lines.

#include "client/followedstream.h"
#include "client/logstream.h"
#include "client/sseparser.h"

namespace lizard::client {

class CurlMulti;

class LogStreamImpl : public LogStream
{
    Q_OBJECT
public:
    LogStreamImpl(CurlMulti* multi, HttpRequest request, QString what, QObject* parent = nullptr);
    ~LogStreamImpl() override;
    void cancel() override;

    // One `log` event's data → a line (false: not a LogLine object).
    static bool parseLine(const QByteArray& json, const QString& id, SandboxLogLine& out);

private:
    void onData(const QByteArray& chunk);
    void onFinished(const HttpResponse& response);
    bool handleEvents(const QList<SseEvent>& events); // false: a slot destroyed this

    SseParser m_parser;
    FollowedStream m_stream; // last: it starts the transfer, whose handlers use the above
};

} // namespace lizard::client
