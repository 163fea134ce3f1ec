// LizardApi: terminals (lizard-local's PTY sessions), their REST calls and TerminalLink, the
// attached WebSocket (/work/notes/terminal-protocol.md).
#include "client/apicall.h"
#include "client/jsonmapping.h"
#include "client/lizardapi.h"
#include "client/requestbuilder.h"
#include "client/websocket.h"

namespace lizard::client {

using namespace apicall;

namespace {

constexpr qsizetype kMaxInputFrame = 64 * 1024; // the server's limit per input frame

QByteArray terminalsPath(const QString& sandboxId, const QByteArray& rest = {})
{
    return sandboxPath(sandboxId, "/terminals" + rest);
}

QByteArray terminalPath(const QString& sandboxId, const QString& terminalId,
                        const QByteArray& rest = {})
{
    return terminalsPath(sandboxId, "/" + seg(terminalId) + rest);
}

} // namespace

PendingCall* LizardApi::createTerminal(const QString& sandboxId, const CreateTerminalRequest& req,
                                       QObject* ctx, Done<TerminalInfo> done)
{
    const auto request =
        RequestBuilder(m_endpoint).json("POST", terminalsPath(sandboxId), createTerminalBody(req));
    return startCall<TerminalInfo>(m_multi.get(), request, tr("Open a terminal"), ctx,
                                   std::move(done), parseTerminal);
}

PendingCall* LizardApi::listTerminals(const QString& sandboxId, QObject* ctx,
                                      Done<QList<TerminalInfo>> done)
{
    const auto request = RequestBuilder(m_endpoint).json("GET", terminalsPath(sandboxId));
    return startCall<QList<TerminalInfo>>(m_multi.get(), request, tr("List terminals"), ctx,
                                          std::move(done), parseTerminals);
}

PendingCall* LizardApi::getTerminal(const QString& sandboxId, const QString& terminalId,
                                    QObject* ctx, Done<TerminalInfo> done)
{
    const auto request =
        RequestBuilder(m_endpoint).json("GET", terminalPath(sandboxId, terminalId));
    return startCall<TerminalInfo>(m_multi.get(), request, tr("Terminal"), ctx, std::move(done),
                                   parseTerminal);
}

PendingCall* LizardApi::updateTerminal(const QString& sandboxId, const QString& terminalId,
                                       int cols, int rows, const std::optional<QString>& name,
                                       QObject* ctx, Done<TerminalInfo> done)
{
    const auto request = RequestBuilder(m_endpoint)
                             .json("PATCH", terminalPath(sandboxId, terminalId),
                                   updateTerminalBody(cols, rows, name));
    return startCall<TerminalInfo>(m_multi.get(), request, tr("Change the terminal"), ctx,
                                   std::move(done), parseTerminal);
}

PendingCall* LizardApi::signalTerminal(const QString& sandboxId, const QString& terminalId,
                                       const QString& signal, QObject* ctx, Done<Unit> done)
{
    const auto request = RequestBuilder(m_endpoint)
                             .json("POST", terminalPath(sandboxId, terminalId, "/signal"),
                                   terminalSignalBody(signal));
    return startCall<Unit>(m_multi.get(), request, tr("Signal the terminal"), ctx, std::move(done),
                           noValue);
}

PendingCall* LizardApi::closeTerminal(const QString& sandboxId, const QString& terminalId,
                                      QObject* ctx, Done<Unit> done)
{
    const auto request =
        RequestBuilder(m_endpoint).json("DELETE", terminalPath(sandboxId, terminalId));
    return startCall<Unit>(m_multi.get(), request, tr("Close the terminal"), ctx, std::move(done),
                           noValue);
}

TerminalLink* LizardApi::attachTerminal(const QString& sandboxId, const QString& terminalId,
                                        bool replay)
{
    HttpRequest request = RequestBuilder(m_endpoint)
                              .json("GET", terminalPath(sandboxId, terminalId,
                                                        replay ? "/attach" : "/attach?replay=0"));
    // The headers of every call (the key as X-API-Key, User-Agent), but no JSON Accept: the
    // answer is a 101.
    request.headers.removeIf([](const QByteArray& h) { return h.startsWith("Accept:"); });
    auto* link = new TerminalLink(sandboxId, terminalId);
    link->m_socket->open(request, tr("Attach the terminal"));
    return link;
}

// --- TerminalLink ---

TerminalLink::TerminalLink(QString sandboxId, QString terminalId, QObject* parent)
    : QObject(parent), m_sandboxId(std::move(sandboxId)), m_terminalId(std::move(terminalId)),
      m_socket(new WebSocket(this))
{
    connect(m_socket, &WebSocket::textMessage, this, &TerminalLink::onText);
    connect(m_socket, &WebSocket::binaryMessage, this, [this](const QByteArray& bytes) {
        if (!m_ended)
            emit output(bytes);
    });
    connect(m_socket, &WebSocket::closed, this, &TerminalLink::onClosed);
    connect(m_socket, &WebSocket::failed, this, &TerminalLink::onFailed);
}

TerminalLink::~TerminalLink()
{
    // Gracefully, so the server counts one client less at once (not after its idle timeout).
    detach();
}

bool TerminalLink::sendInput(const QByteArray& bytes)
{
    if (!m_attached || m_socket == nullptr)
        return false;
    for (qsizetype at = 0; at < bytes.size(); at += kMaxInputFrame)
        if (!m_socket->sendBinary(bytes.mid(at, kMaxInputFrame)))
            return false;
    return true;
}

bool TerminalLink::resize(int cols, int rows)
{
    if (!m_attached || m_socket == nullptr || cols <= 0 || rows <= 0)
        return false;
    return m_socket->sendText(terminalResizeMessage(cols, rows));
}

bool TerminalLink::sendSignal(const QString& signal)
{
    if (!m_attached || m_socket == nullptr)
        return false;
    return m_socket->sendText(terminalSignalMessage(signal));
}

void TerminalLink::detach()
{
    m_ended = true;
    m_attached = false;
    if (m_socket == nullptr)
        return;
    // The socket finishes its close handshake on its own, then goes: this link may be deleted
    // right after detach().
    WebSocket* socket = m_socket;
    m_socket = nullptr;
    socket->disconnect(this);
    socket->setParent(nullptr);
    if (socket->state() == WebSocket::State::Closed) {
        socket->deleteLater();
        return;
    }
    connect(socket, &WebSocket::closed, socket, &QObject::deleteLater);
    connect(socket, &WebSocket::failed, socket, &QObject::deleteLater);
    socket->close();
}

qint64 TerminalLink::bufferedAmount() const
{
    return m_socket != nullptr ? m_socket->bufferedAmount() : 0;
}

void TerminalLink::pauseOutput(bool paused)
{
    if (m_socket != nullptr)
        m_socket->setReadPaused(paused);
}

void TerminalLink::dropConnectionForTest()
{
    if (m_socket != nullptr)
        m_socket->dropConnectionForTest();
}

void TerminalLink::onText(const QByteArray& text)
{
    if (m_ended)
        return;
    const TerminalControl c = parseTerminalControl(text);
    switch (c.type) {
    case TerminalControl::Type::Hello:
        m_attached = true;
        emit attached(c.cols, c.rows, c.status, c.replayBytes);
        return;
    case TerminalControl::Type::Resize:
        emit resized(c.cols, c.rows);
        return;
    case TerminalControl::Type::Exit:
        // The server's close follows; it is no disconnection.
        m_ended = true;
        m_attached = false;
        emit exited(c.exitCode);
        return;
    case TerminalControl::Type::Error:
        emit errorMessage(c.code, c.message);
        return;
    case TerminalControl::Type::Unknown:
        return; // a newer server's message: skipped
    }
}

void TerminalLink::onClosed(int code, const QString& reason)
{
    if (m_ended)
        return;
    m_ended = true;
    m_attached = false;
    ApiError e;
    e.kind = ApiError::Kind::Network;
    e.code = QStringLiteral("CONNECTION_CLOSED");
    e.message = code == 1009 ? QStringLiteral("the server closed the terminal: a frame was too "
                                              "large (1009)")
                             : QStringLiteral("the server closed the terminal's connection (%1%2)")
                                   .arg(code)
                                   .arg(reason.isEmpty() ? QString() : ": " + reason);
    e.what = tr("Attach the terminal");
    emit disconnected(e);
}

void TerminalLink::onFailed(const ApiError& error)
{
    if (m_ended)
        return;
    m_ended = true;
    m_attached = false;
    emit disconnected(error);
}

} // namespace lizard::client
