#include "models/terminals/terminalsession.h"

#include "client/lizardapi.h"

namespace lizard::models {

using client::ApiError;
using client::TerminalLink;

namespace {

constexpr int kFirstBackoffMs = 250;
constexpr int kMaxBackoffMs = 5000;
// Typing kept while the link is made again: one input message of the server's at most.
constexpr qsizetype kMaxPendingInput = 64 * 1024;

// Attaching again cannot help: the key is refused, the terminal is gone, or the server does not
// speak WebSocket on this path (426: something in between dropped the upgrade).
bool permanent(const ApiError& e)
{
    return e.kind == ApiError::Kind::Authentication || e.kind == ApiError::Kind::Cancelled ||
           e.httpStatus == 404 || e.httpStatus == 400 || e.httpStatus == 426 || e.httpStatus == 501;
}

} // namespace

TerminalSession::TerminalSession(client::LizardApi* api, QString sandboxId, QString terminalId,
                                 QObject* parent)
    : QObject(parent), m_api(api), m_sandboxId(std::move(sandboxId)),
      m_terminalId(std::move(terminalId))
{
    m_retry.setSingleShot(true);
    connect(&m_retry, &QTimer::timeout, this, &TerminalSession::connectLink);
}

TerminalSession::~TerminalSession()
{
    if (m_link != nullptr)
        m_link->disconnect(this);
    delete m_link; // detaches gracefully
}

int TerminalSession::backoffMs(int attempt)
{
    if (attempt <= 1)
        return kFirstBackoffMs;
    if (attempt > 6)
        return kMaxBackoffMs;
    return std::min(kMaxBackoffMs, kFirstBackoffMs << (attempt - 1));
}

void TerminalSession::attach()
{
    if (m_state == State::Connecting || m_state == State::Attached ||
        m_state == State::Reconnecting)
        return;
    m_attempt = 0;
    m_error = {};
    setState(State::Connecting);
    connectLink();
}

void TerminalSession::connectLink()
{
    dropLink();
    if (m_api == nullptr) {
        m_error = ApiError::notConnected(tr("Attach the terminal"));
        setState(State::Failed);
        return;
    }
    m_link = m_api->attachTerminal(m_sandboxId, m_terminalId, true);
    m_outputPaused = false; // the widget starts again from empty with the replay
    m_link->setParent(this);
    connect(m_link, &TerminalLink::attached, this,
            [this](int cols, int rows, const QString& status, qint64 replayBytes) {
                m_replayLeft = replayBytes;
                onAttached(cols, rows, status);
            });
    connect(m_link, &TerminalLink::output, this, [this](const QByteArray& bytes) {
        if (m_replayLeft <= 0)
            return emit output(bytes);
        // The replay repeats queries programs sent earlier (DA, DSR); the widget shows them
        // but must not answer them again, or the answers would arrive as typing.
        const qsizetype n = qsizetype(std::min<qint64>(m_replayLeft, bytes.size()));
        m_replayLeft -= n;
        emit replayOutput(n == bytes.size() ? bytes : bytes.left(n));
        if (n < bytes.size())
            emit output(bytes.mid(n));
    });
    connect(m_link, &TerminalLink::resized, this, [this](int cols, int rows) {
        m_cols = cols;
        m_rows = rows;
        emit resized(cols, rows);
    });
    connect(m_link, &TerminalLink::exited, this, [this](int code) {
        m_exitCode = code;
        dropLink();
        setState(State::Exited);
        emit exited(code);
    });
    connect(m_link, &TerminalLink::errorMessage, this, &TerminalSession::errorMessage);
    connect(m_link, &TerminalLink::disconnected, this, &TerminalSession::onDisconnected);
}

void TerminalSession::onAttached(int cols, int rows, const QString& status)
{
    Q_UNUSED(status); // an exited terminal still replays, then says exit
    m_attempt = 0;
    m_cols = cols;
    m_rows = rows;
    // Before the replay's first byte: the widget clears, and what it shows is the server's.
    emit replayStarting();
    setState(State::Attached);
    if (m_link != nullptr && m_wantCols > 0 && (m_wantCols != cols || m_wantRows != rows))
        m_link->resize(m_wantCols, m_wantRows);
    if (m_link != nullptr && !m_pendingInput.isEmpty())
        m_link->sendInput(m_pendingInput);
    m_pendingInput.clear();
    m_pendingOverflow = false;
}

void TerminalSession::onDisconnected(const ApiError& error)
{
    m_error = error;
    dropLink();
    if (m_state == State::Exited || m_state == State::Detached)
        return;
    if (permanent(error)) {
        setState(State::Failed);
        return;
    }
    ++m_attempt;
    m_retry.start(backoffMs(m_attempt));
    if (m_state == State::Reconnecting)
        emit stateChanged(m_state); // statusText() changed: another attempt
    else
        setState(State::Reconnecting);
}

void TerminalSession::detach()
{
    m_retry.stop();
    m_pendingInput.clear();
    if (m_link != nullptr)
        m_link->detach();
    dropLink();
    if (m_state != State::Exited)
        setState(State::Detached);
}

void TerminalSession::dropLink()
{
    if (m_link == nullptr)
        return;
    m_link->disconnect(this);
    // Often from one of the link's own signals: deleted later (its destructor detaches).
    m_link->deleteLater();
    m_link = nullptr;
}

void TerminalSession::sendInput(const QByteArray& bytes)
{
    if (m_state == State::Attached && m_link != nullptr) {
        m_link->sendInput(bytes);
        return;
    }
    // Typed while the link is being made again: kept, in order, and sent once attached, as a
    // person at the keyboard expects. Bounded; past it the typing is lost, and said to be.
    if (m_state != State::Connecting && m_state != State::Reconnecting)
        return;
    if (m_pendingInput.size() + bytes.size() > kMaxPendingInput) {
        if (!m_pendingOverflow)
            emit errorMessage(QStringLiteral("INPUT_DROPPED"),
                              tr("Typing while the terminal reconnects is kept up to %1 KiB; "
                                 "the rest was not sent.")
                                  .arg(kMaxPendingInput / 1024));
        m_pendingOverflow = true;
        return;
    }
    m_pendingInput += bytes;
}

void TerminalSession::resize(int cols, int rows)
{
    if (cols <= 0 || rows <= 0)
        return;
    m_wantCols = cols;
    m_wantRows = rows;
    if (m_state == State::Attached && m_link != nullptr && (cols != m_cols || rows != m_rows))
        m_link->resize(cols, rows);
}

void TerminalSession::sendSignal(const QString& signal)
{
    if (m_state == State::Attached && m_link != nullptr)
        m_link->sendSignal(signal);
}

void TerminalSession::pauseOutput(bool paused)
{
    m_outputPaused = paused;
    if (m_link != nullptr)
        m_link->pauseOutput(paused);
}

void TerminalSession::dropConnectionForTest()
{
    if (m_link != nullptr)
        m_link->dropConnectionForTest();
}

QString TerminalSession::statusText() const
{
    switch (m_state) {
    case State::Detached:
        return tr("Detached");
    case State::Connecting:
        return tr("Connecting…");
    case State::Attached:
        return tr("Connected");
    case State::Reconnecting:
        return tr("Connection lost (%1); reconnecting (attempt %2)…")
            .arg(m_error.message)
            .arg(m_attempt);
    case State::Exited:
        return tr("Exited with code %1").arg(m_exitCode);
    case State::Failed:
        return tr("Could not attach: %1").arg(m_error.toDisplayString());
    }
    return {};
}

void TerminalSession::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    emit stateChanged(state);
}

} // namespace lizard::models
