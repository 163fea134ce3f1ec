#include "client/logstreamimpl.h"

#include "client/errormapping.h"
#include "client/jsonreader.h"

#include <QCoreApplication>
#include <QPointer>
#include <nlohmann/json.hpp>

namespace lizard::client {

namespace {

using Json = nlohmann::json;

// The cloud does not offer sandbox logs yet (501), an older lizard-local neither: say so
// plainly rather than as a server failure.
ApiError explain(ApiError e)
{
    if (e.httpStatus == 501) {
        e.code = QStringLiteral("LOGS_UNAVAILABLE");
        e.message = QCoreApplication::translate(
            "LogStream", "this server does not provide sandbox logs (the Lizard cloud does not "
                         "offer them yet; lizard-local does)");
    } else if (e.httpStatus == 404) {
        e.message = QCoreApplication::translate(
                        "LogStream", "the sandbox is not running (it ended or never existed)") +
                    (e.message.isEmpty() ? QString() : QStringLiteral(": ") + e.message);
    }
    return e;
}

} // namespace

LogStreamImpl::LogStreamImpl(CurlMulti* multi, HttpRequest request, QString what, QObject* parent)
    : LogStream(parent), m_stream(this, multi, std::move(request), std::move(what),
                                  {[this](const QByteArray& chunk) { onData(chunk); },
                                   [this](const HttpResponse& response) { onFinished(response); },
                                   [this](const ApiError& error) { emit failed(error); }},
                                  false)
{
}

LogStreamImpl::~LogStreamImpl() = default;

void LogStreamImpl::cancel()
{
    m_stream.cancel();
}

bool LogStreamImpl::parseLine(const QByteArray& json, const QString& id, SandboxLogLine& out)
{
    const Json j = Json::parse(json.constBegin(), json.constEnd(), nullptr, false);
    if (!j.is_object() || !j.contains("message"))
        return false;
    out.message = stringField(j, "message");
    out.level = stringField(j, "level");
    if (out.level.isEmpty())
        out.level = QStringLiteral("info");
    out.source = stringField(j, "source");
    const auto ts = j.find("ts");
    out.ts = ts != j.end() && ts->is_number() ? ts->get<qint64>() : 0;
    out.seq = id.toLongLong();
    return true;
}

void LogStreamImpl::onData(const QByteArray& chunk)
{
    if (m_stream.ended() || m_stream.response().status / 100 != 2)
        return; // an error answer's body is read at the end
    handleEvents(m_parser.feed(chunk));
}

void LogStreamImpl::onFinished(const HttpResponse& response)
{
    if (m_stream.ended())
        return;
    if (auto error = errorFromResponse(response, m_stream.what())) {
        m_stream.finishWith(explain(*error));
        return;
    }
    if (!handleEvents(m_parser.finish()) || m_stream.ended())
        return;
    m_stream.markEnded();
    emit ended();
}

bool LogStreamImpl::handleEvents(const QList<SseEvent>& events)
{
    QList<SandboxLogLine> batch;
    for (const SseEvent& ev : events) {
        if (ev.event == QLatin1String("error")) {
            ApiError e = mapHttpError(500, ev.data.toUtf8(), {}, m_stream.what());
            e.kind = ApiError::Kind::Server;
            e.httpStatus = m_stream.response().status;
            if (!batch.isEmpty()) {
                const QPointer<LogStreamImpl> self(this);
                emit lines(std::exchange(batch, {}));
                if (!self)
                    return false;
            }
            return m_stream.finishWith(e);
        }
        SandboxLogLine line;
        // The cloud's SDK type has no event name of its own: a LogLine in any event is a line.
        if (ev.event != QLatin1String("end") && parseLine(ev.data.toUtf8(), ev.id, line))
            batch.append(line);
    }
    if (batch.isEmpty())
        return true;
    const QPointer<LogStreamImpl> self(this);
    emit lines(batch);
    return self != nullptr;
}

} // namespace lizard::client
