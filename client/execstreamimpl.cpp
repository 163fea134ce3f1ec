#include "client/execstreamimpl.h"

#include "client/errormapping.h"
#include "client/jsonmapping.h"

#include <QPointer>
#include <nlohmann/json.hpp>

namespace lizard::client {

namespace {

using Json = nlohmann::json;

bool isNumber(const Json& j, const char* key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_number();
}

} // namespace

ExecStreamImpl::ExecStreamImpl(CurlMulti* multi, HttpRequest request, QString what, QObject* parent)
    : ExecStream(parent), m_stream(this, multi, std::move(request), std::move(what),
                                   {[this](const QByteArray& chunk) { onData(chunk); },
                                    [this](const HttpResponse& response) { onFinished(response); },
                                    [this](const ApiError& error) { emit failed(error); }},
                                   true)
{
}

ExecStreamImpl::~ExecStreamImpl() = default;

void ExecStreamImpl::cancel()
{
    m_stream.cancel();
}

void ExecStreamImpl::onData(const QByteArray& chunk)
{
    if (m_stream.ended())
        return;
    m_stream.dataArrived();
    if (!m_checkedType) {
        m_checkedType = true;
        const QByteArray type = m_stream.response().header("content-type").toLower();
        m_isEventStream = type.startsWith("text/event-stream");
    }
    if (!m_isEventStream) {
        m_plainBody += chunk;
        return;
    }
    handleEvents(m_parser.feed(chunk));
}

void ExecStreamImpl::onFinished(const HttpResponse& response)
{
    if (m_stream.ended())
        return;
    if (auto error = errorFromResponse(response, m_stream.what())) {
        // The connection broke after it was made: the server may have taken the command, which
        // may still run or have finished there.
        FollowedStream::markConnectionLost(*error, response);
        m_stream.finishWith(*error);
        return;
    }
    if (!m_isEventStream) {
        finishPlainAnswer(m_plainBody + response.body);
        return;
    }
    if (!handleEvents(m_parser.finish()))
        return;
    if (!m_stream.ended())
        m_stream.finishWith(protocolError(QStringLiteral("the stream ended without an exit code"),
                                          m_stream.what(), response.status));
}

bool ExecStreamImpl::handleEvents(const QList<SseEvent>& events)
{
    QList<OutputLine> batch;
    for (const SseEvent& ev : events) {
        if (m_stream.ended())
            break;
        const QByteArray data = ev.data.toUtf8();
        const Json j = Json::parse(data.constBegin(), data.constEnd(), nullptr, false);
        if (!j.is_object())
            continue; // like the SDK: a data line that is not a JSON object is not ours
        if (const auto line = j.find("line"); line != j.end() && line->is_string()) {
            const auto stream = j.find("stream");
            const bool isErr =
                stream != j.end() && stream->is_string() && stream->get<std::string>() == "stderr";
            batch.append({isErr ? OutputStream::Stderr : OutputStream::Stdout,
                          QString::fromStdString(line->get<std::string>())});
            continue;
        }
        if (!flush(batch))
            return false;
        const QPointer<ExecStreamImpl> self(this);
        if (isNumber(j, "pid")) {
            emit started(j["pid"].get<int>());
        } else if (isNumber(j, "exitCode")) {
            m_stream.markEnded();
            const auto timedOut = j.find("timedOut");
            m_timedOut = timedOut != j.end() && timedOut->is_boolean() && timedOut->get<bool>();
            const auto oom = j.find("oomKilled");
            m_oomKilled = oom != j.end() && oom->is_boolean() && oom->get<bool>();
            emit exited(j["exitCode"].get<int>());
        } else if (j.contains("error") || ev.event == QLatin1String("error")) {
            ApiError e = mapHttpError(500, data, {}, m_stream.what());
            e.kind = ApiError::Kind::Server;
            e.httpStatus = m_stream.response().status;
            return m_stream.finishWith(e);
        }
        if (self == nullptr)
            return false;
    }
    return flush(batch);
}

bool ExecStreamImpl::flush(QList<OutputLine>& batch)
{
    if (batch.isEmpty())
        return true;
    const QPointer<ExecStreamImpl> self(this);
    emit output(std::exchange(batch, {}));
    return self != nullptr;
}

// The server answered with the plain {stdout, stderr, exitCode} object: report it as a stream.
bool ExecStreamImpl::finishPlainAnswer(const QByteArray& body)
{
    const Outcome<ExecResult> result = parseExecResult(body, m_stream.what());
    if (!result.ok())
        return m_stream.finishWith(result.error());
    QList<OutputLine> lines;
    const auto addLines = [&lines](const QString& text, OutputStream stream) {
        if (text.isEmpty())
            return;
        QString t = text;
        if (t.endsWith(QLatin1Char('\n')))
            t.chop(1);
        for (const QString& l : t.split(QLatin1Char('\n')))
            lines.append({stream, l});
    };
    addLines(result.value().stdoutText, OutputStream::Stdout);
    addLines(result.value().stderrText, OutputStream::Stderr);
    if (!flush(lines))
        return false;
    m_stream.markEnded();
    const QPointer<ExecStreamImpl> self(this);
    emit exited(result.value().exitCode);
    return self != nullptr;
}

} // namespace lizard::client
