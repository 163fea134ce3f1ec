#pragma once
// The ActivityStream behind LizardApi::followActivity: SseParser over the answer, each event's
// JSON entry into a batch, a KeepaliveWatch for a connection that went silent.

#include "client/activitystream.h"
#include "client/curltransfer.h"
#include "client/keepalivewatch.h"
#include "client/sseparser.h"

#include <memory>

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
    bool finishWith(const ApiError& error);
    void failLater(const ApiError& error);

    std::unique_ptr<CurlTransfer> m_transfer;
    std::unique_ptr<KeepaliveWatch> m_stallWatch;
    SseParser m_parser;
    QString m_what;
    bool m_ended = false;
};

} // namespace lizard::client
