#pragma once
// The TemplateBuildStream behind LizardApi::followTemplateBuild: SseParser over the answer,
// `log` events → lines, the `end` event → ended.

#include "client/followedstream.h"
#include "client/sseparser.h"
#include "client/templatebuildstream.h"

namespace lizard::client {

class CurlMulti;

class TemplateBuildStreamImpl : public TemplateBuildStream
{
    Q_OBJECT
public:
    TemplateBuildStreamImpl(CurlMulti* multi, HttpRequest request, QString what,
                            QObject* parent = nullptr);
    ~TemplateBuildStreamImpl() override;
    void cancel() override;

private:
    void onData(const QByteArray& chunk);
    void onFinished(const HttpResponse& response);
    bool handleEvents(const QList<SseEvent>& events); // false: ended, or a slot destroyed this

    SseParser m_parser;
    FollowedStream m_stream; // last: it starts the transfer, whose handlers use the above
};

} // namespace lizard::client
