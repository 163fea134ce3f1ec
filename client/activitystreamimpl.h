#pragma once
// The ActivityStream behind LizardApi::followActivity: SseParser over the answer, each event's
// JSON entry into a batch, a KeepaliveWatch for a connection that went silent.

#include "client/activitystream.h"
#include "client/followedstream.h"
#include "client/sseparser.h"

namespace lizard::client {

class CurlMulti;

class ActivityStreamImpl : public ActivityStream
{
    Q_OBJECT
public:
    ActivityStreamImpl(CurlMulti* multi, HttpRequest request, QString what,
                       QObject* parent = nullptr);
    ~ActivityStreamImpl() override;
    void cancel() override;

private:
    void onData(const QByteArray& chunk);
    void onFinished(const HttpResponse& response);
    bool handleEvents(const QList<SseEvent>& events); // false: a slot destroyed this

    SseParser m_parser;
    FollowedStream m_stream; // last: it starts the transfer, whose handlers use the above
};

} // namespace lizard::client
