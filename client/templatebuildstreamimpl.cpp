#include "client/templatebuildstreamimpl.h"

#include "client/errormapping.h"
#include "client/jsonmapping.h"

#include <QCoreApplication>
#include <QPointer>
#include <nlohmann/json.hpp>

namespace lizard::client {

TemplateBuildStreamImpl::TemplateBuildStreamImpl(CurlMulti* multi, HttpRequest request,
                                                 QString what, QObject* parent)
    : TemplateBuildStream(parent),
      m_stream(this, multi, std::move(request), std::move(what),
               {[this](const QByteArray& chunk) { onData(chunk); },
                [this](const HttpResponse& response) { onFinished(response); },
                [this](const ApiError& error) { emit failed(error); }},
               false)
{
}

TemplateBuildStreamImpl::~TemplateBuildStreamImpl() = default;

void TemplateBuildStreamImpl::cancel()
{
    m_stream.cancel();
}

void TemplateBuildStreamImpl::onData(const QByteArray& chunk)
{
    if (m_stream.ended() || m_stream.response().status / 100 != 2)
        return; // an error answer's body is read at the end
    handleEvents(m_parser.feed(chunk));
}

void TemplateBuildStreamImpl::onFinished(const HttpResponse& response)
{
    if (m_stream.ended())
        return;
    if (auto error = errorFromResponse(response, m_stream.what())) {
        m_stream.finishWith(*error);
        return;
    }
    if (!handleEvents(m_parser.finish()) || m_stream.ended())
        return;
    // The server closed the stream without its `end`: lizard-local stopped meanwhile.
    ApiError e;
    e.kind = ApiError::Kind::Network;
    e.message = QCoreApplication::translate("TemplateBuildStream",
                                            "the build's log ended before the build did (did "
                                            "lizard-local stop?)");
    m_stream.finishWith(e);
}

bool TemplateBuildStreamImpl::handleEvents(const QList<SseEvent>& events)
{
    QStringList batch;
    const QPointer<TemplateBuildStreamImpl> self(this);
    const auto flush = [&] {
        if (batch.isEmpty())
            return true;
        emit lines(std::exchange(batch, {}));
        return self != nullptr;
    };
    for (const SseEvent& ev : events) {
        if (ev.event == QLatin1String("log")) {
            const auto j = nlohmann::json::parse(ev.data.toStdString(), nullptr, false);
            if (j.is_object() && j.contains("line") && j["line"].is_string())
                batch.append(QString::fromStdString(j["line"].get<std::string>()));
            continue;
        }
        if (ev.event == QLatin1String("end")) {
            if (!flush())
                return false;
            auto build = parseTemplateBuild(ev.data.toUtf8(), m_stream.what());
            if (!build)
                return m_stream.finishWith(build.error());
            m_stream.markEnded();
            emit ended(build.value());
            return false;
        }
        if (ev.event == QLatin1String("error")) {
            if (!flush())
                return false;
            ApiError e = mapHttpError(500, ev.data.toUtf8(), {}, m_stream.what());
            e.httpStatus = m_stream.response().status;
            return m_stream.finishWith(e);
        }
    }
    return flush();
}

} // namespace lizard::client
