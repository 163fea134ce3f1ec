#include "client/activitystreamimpl.h"

#include "client/errormapping.h"
#include "client/jsonmapping.h"

#include <QPointer>

namespace lizard::client {

ActivityStreamImpl::ActivityStreamImpl(CurlMulti* multi, HttpRequest request, QString what,
                                       QObject* parent)
    : ActivityStream(parent),
      m_stream(this, multi, std::move(request), std::move(what),
               {[this](const QByteArray& chunk) { onData(chunk); },
                [this](const HttpResponse& response) { onFinished(response); },
                [this](const ApiError& error) { emit failed(error); }},
               true)
{
}

ActivityStreamImpl::~ActivityStreamImpl() = default;

void ActivityStreamImpl::cancel()
{
    m_stream.cancel();
}

void ActivityStreamImpl::onData(const QByteArray& chunk)
{
    if (m_stream.ended() || m_stream.response().status / 100 != 2)
        return; // an error answer's body is read at the end
    m_stream.dataArrived();
    handleEvents(m_parser.feed(chunk));
}

void ActivityStreamImpl::onFinished(const HttpResponse& response)
{
    if (m_stream.ended())
        return;
    if (auto error = errorFromResponse(response, m_stream.what())) {
        // A connection that broke after it was made (a server restart): the log goes on there.
        FollowedStream::markConnectionLost(*error, response);
        m_stream.finishWith(*error);
        return;
    }
    if (!handleEvents(m_parser.finish()) || m_stream.ended())
        return;
    m_stream.markEnded();
    emit ended();
}

bool ActivityStreamImpl::handleEvents(const QList<SseEvent>& events)
{
    ActivityPage batch;
    for (const SseEvent& ev : events) {
        if (ev.event == QLatin1String("error")) {
            ApiError e = mapHttpError(500, ev.data.toUtf8(), {}, m_stream.what());
            e.kind = ApiError::Kind::Server;
            e.httpStatus = m_stream.response().status;
            if (!batch.entries.empty()) {
                const QPointer<ActivityStreamImpl> self(this);
                emit entries(batch);
                if (!self)
                    return false;
            }
            return m_stream.finishWith(e);
        }
        std::optional<ActivityEntry> entry = parseActivityEntry(ev.data.toUtf8());
        if (!entry)
            continue; // as the JSON route's reader: an entry the app cannot read is left out
        batch.lastSeq = entry->seq;
        batch.entries.push_back(std::move(*entry));
    }
    if (batch.entries.empty())
        return true;
    const QPointer<ActivityStreamImpl> self(this);
    emit entries(batch);
    return self != nullptr;
}

} // namespace lizard::client
