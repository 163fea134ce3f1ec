#include "client/activitystreamimpl.h"

#include "client/errormapping.h"
#include "client/streamtransfer.h"

#include <QMetaObject>
#include <QPointer>
#include <curl/curl.h>
#include <nlohmann/json.hpp>

namespace lizard::client {

ActivityStreamImpl::ActivityStreamImpl(CurlMulti* multi, HttpRequest request, QString what,
                                       QObject* parent)
    : ActivityStream(parent), m_what(std::move(what))
{
    m_transfer = startStreamTransfer(
        multi, std::move(request), m_what, [this](const QByteArray& chunk) { onData(chunk); },
        [this](const HttpResponse& response) { onFinished(response); },
        [this](const ApiError& error) { failLater(error); });
    m_stallWatch =
        std::make_unique<KeepaliveWatch>(m_transfer.get(), m_what, [this](const ApiError& e) {
            if (!m_ended)
                finishWith(e);
        });
}

ActivityStreamImpl::~ActivityStreamImpl() = default;

void ActivityStreamImpl::cancel()
{
    m_transfer->cancel();
    failLater(cancelledError(m_what));
}

void ActivityStreamImpl::failLater(const ApiError& error)
{
    if (m_ended)
        return;
    m_ended = true;
    if (m_stallWatch) // null while the constructor starts the transfer
        m_stallWatch->stop();
    QMetaObject::invokeMethod(
        this, [this, error] { emit failed(error); }, Qt::QueuedConnection);
}

void ActivityStreamImpl::onData(const QByteArray& chunk)
{
    if (m_ended || m_transfer->response().status / 100 != 2)
        return; // an error answer's body is read at the end
    m_stallWatch->dataArrived();
    handleEvents(m_parser.feed(chunk));
}

void ActivityStreamImpl::onFinished(const HttpResponse& response)
{
    if (m_ended)
        return;
    if (auto error = errorFromResponse(response, m_what)) {
        // A connection that broke after it was made (a server restart): the log goes on there.
        if (error->kind == ApiError::Kind::Network && response.curlCode != CURLE_COULDNT_CONNECT &&
            error->code.isEmpty())
            error->code = QStringLiteral("CONNECTION_LOST");
        finishWith(*error);
        return;
    }
    if (!handleEvents(m_parser.finish()) || m_ended)
        return;
    m_ended = true;
    m_stallWatch->stop();
    emit ended();
}

bool ActivityStreamImpl::handleEvents(const QList<SseEvent>& events)
{
    ActivityPage batch;
    for (const SseEvent& ev : events) {
        if (ev.event == QLatin1String("error")) {
            ApiError e = mapHttpError(500, ev.data.toUtf8(), {}, m_what);
            e.kind = ApiError::Kind::Server;
            e.httpStatus = m_transfer->response().status;
            if (!batch.entries.empty()) {
                const QPointer<ActivityStreamImpl> self(this);
                emit entries(batch);
                if (!self)
                    return false;
            }
            return finishWith(e);
        }
        const QByteArray data = ev.data.toUtf8();
        auto entry = nlohmann::json::parse(data.constBegin(), data.constEnd(), nullptr, false);
        // Like the JSON route's reader: an entry is an object with its seq; nothing else is ours.
        const auto seq = entry.is_object() ? entry.find("seq") : entry.end();
        if (!entry.is_object() || seq == entry.end() || !seq->is_number_unsigned())
            continue;
        batch.lastSeq = seq->get<qint64>();
        batch.entries.push_back(std::move(entry));
    }
    if (batch.entries.empty())
        return true;
    const QPointer<ActivityStreamImpl> self(this);
    emit entries(batch);
    return self != nullptr;
}

bool ActivityStreamImpl::finishWith(const ApiError& error)
{
    m_ended = true;
    m_stallWatch->stop();
    m_transfer->cancel();
    const QPointer<ActivityStreamImpl> self(this);
    emit failed(error);
    return self != nullptr;
}

} // namespace lizard::client
