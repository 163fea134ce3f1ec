#include "client/coderun/servechannel.h"

#include "client/coderun/runnercall.h"

#include <QRandomGenerator>

namespace lizard::client {

namespace {
constexpr int kStartTimeoutMs = 30000;
}

ServeChannel::ServeChannel(LizardApi* api, QString sandboxId, QByteArray source, int lifetimeS,
                           QObject* parent)
    : QObject(parent), m_api(api), m_sandboxId(std::move(sandboxId)), m_source(std::move(source)),
      m_lifetimeS(lifetimeS)
{
    m_inboxName = QStringLiteral("app-%1").arg(QRandomGenerator::global()->generate64(), 16, 16,
                                               QLatin1Char('0'));
    m_startTimer.setSingleShot(true);
    connect(&m_startTimer, &QTimer::timeout, this, [this] {
        die(QStringLiteral("the code runner did not start within %1 s")
                .arg(kStartTimeoutMs / 1000));
    });
}

ServeChannel::~ServeChannel()
{
    if (m_stream)
        m_stream->cancel();
}

int ServeChannel::inFlight() const
{
    int n = 0;
    for (const auto& call : m_calls)
        n += call && !call->isEnded();
    return n;
}

void ServeChannel::start()
{
    if (m_source.isEmpty()) {
        QTimer::singleShot(0, this, [this] {
            die(QStringLiteral("the runner is missing from the app's resources"));
        });
        return;
    }
    const nlohmann::json args{
        {"action", "serve"}, {"inbox", m_inboxName.toStdString()}, {"lifetime", m_lifetimeS}};
    ExecOptions opts;
    opts.timeoutMs = 600000;
    m_stream = m_api->execStreamArgv(m_sandboxId,
                                     {QStringLiteral("python3"), QStringLiteral("-c"),
                                      QString::fromUtf8(m_source), encodeRunnerArgs(args)},
                                     opts);
    m_stream->setParent(this);
    connect(m_stream, &ExecStream::output, this, &ServeChannel::onLines);
    connect(m_stream, &ExecStream::exited, this, [this](int code) {
        QString why = QStringLiteral("the code runner's stream ended (exit code %1)").arg(code);
        if (!m_stderrTail.isEmpty())
            why += QStringLiteral(": ") + m_stderrTail.join(QLatin1Char('\n')).right(1000);
        die(why);
    });
    connect(m_stream, &ExecStream::failed, this, [this](const ApiError& e) {
        die(QStringLiteral("the code runner's stream failed: ") + e.toDisplayString(), &e);
    });
    m_startTimer.start(kStartTimeoutMs);
}

void ServeChannel::send(RunnerCall* call)
{
    const QString req = QStringLiteral("r%1").arg(++m_next);
    nlohmann::json request = call->request();
    request["req"] = req.toStdString();
    m_calls.insert(req, call);
    QPointer<RunnerCall> guard(call);
    const QString path = m_inboxPath + QStringLiteral("/req-") + req + QStringLiteral(".json");
    m_api->writeFile(m_sandboxId, path, runnerRequestText(request), this,
                     [this, guard, req](Outcome<Unit> written) {
                         if (written.ok() || !guard)
                             return;
                         m_calls.remove(req);
                         emit notDelivered(guard, written.error());
                     });
}

void ServeChannel::onLines(const QList<OutputLine>& lines)
{
    for (const OutputLine& line : lines) {
        if (line.stream == OutputStream::Stderr) {
            m_stderrTail.append(line.text);
            if (m_stderrTail.size() > 20)
                m_stderrTail.removeFirst();
            continue;
        }
        const auto ev = m_decoder.feed(line.text);
        if (!ev)
            continue;
        const QString req = stringField(*ev, "req"); // the decoder refuses one of another type
        if (req.isEmpty()) {
            onControl(*ev);
            if (m_state == State::Dead)
                return;
            continue;
        }
        const QPointer<RunnerCall> call = m_calls.value(req);
        if (!call) {
            m_calls.remove(req);
            continue;
        }
        call->deliver(*ev);
        if (call && call->isEnded())
            m_calls.remove(req);
    }
}

void ServeChannel::onControl(const nlohmann::json& ev)
{
    const QString type = runnerEventType(ev);
    if (type == QLatin1String("ready") && m_state == State::Starting) {
        m_startTimer.stop();
        m_inboxPath = stringField(ev, "inbox");
        m_state = State::Ready;
        emit ready();
    } else if (type == QLatin1String("expiring") && m_state == State::Ready) {
        m_state = State::Expiring;
        emit expiring();
    } else if (type == QLatin1String("fatal")) {
        die(QStringLiteral("the code runner failed: ") + stringField(ev, "message"));
    }
}

void ServeChannel::die(const QString& why, const ApiError* cause)
{
    if (m_state == State::Dead)
        return;
    m_state = State::Dead;
    m_startTimer.stop();
    if (m_stream) {
        m_stream->disconnect(this);
        m_stream->cancel();
    }
    const auto calls = m_calls;
    m_calls.clear();
    ApiError error = runnerError(why + QStringLiteral(" (the request may or may not have run)"));
    if (cause != nullptr && cause->kind == ApiError::Kind::Network) {
        error.kind = ApiError::Kind::Network; // callers tell a lost server from a runner's failure
        error.code = QStringLiteral("CONNECTION_LOST");
    }
    for (const auto& call : calls)
        if (call)
            call->fail(error);
    emit died(why);
}

} // namespace lizard::client
