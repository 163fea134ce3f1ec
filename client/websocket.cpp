#include "client/websocket.h"

#include "client/curltransfer.h"
#include "client/errormapping.h"
#include "client/keytransport.h"
#include "client/offthread.h"
#include "client/tlsconfig.h"

#include <QPointer>
#include <QRandomGenerator>
#include <QSocketNotifier>
#include <QUrl>
#include <atomic>
#include <curl/curl.h>
#include <sys/socket.h>

namespace lizard::client {

using namespace wsframes;

namespace {

constexpr int kHandshakeTimeoutMs = 30000;
constexpr int kCloseTimeoutMs = 5000;
constexpr qsizetype kReadPerTurn = 256 * 1024;
constexpr qsizetype kSendChunk = 64 * 1024;
constexpr qsizetype kMaxErrorBody = 64 * 1024;

MaskKey randomMask()
{
    const quint32 v = QRandomGenerator::global()->generate();
    return {quint8(v), quint8(v >> 8), quint8(v >> 16), quint8(v >> 24)};
}

ApiError connectionLost(const QString& message, const QString& what)
{
    ApiError e;
    e.kind = ApiError::Kind::Network;
    e.code = QStringLiteral("CONNECTION_LOST");
    e.message = message;
    e.what = what;
    return e;
}

// curl wants http(s)://; ws(s):// is the same connection.
QByteArray curlUrl(QByteArray url)
{
    if (url.startsWith("ws://"))
        url.replace(0, 2, "http");
    else if (url.startsWith("wss://"))
        url.replace(0, 3, "https");
    return url;
}

} // namespace

// The easy handle and what the pool thread shares with us while it connects. Whoever lets go
// of it last (we, or a connect still running after the socket was destroyed) cleans it up.
struct WebSocket::Connection
{
    CURL* easy = nullptr;
    std::atomic<bool> abandoned{false};
    char errorBuffer[CURL_ERROR_SIZE] = {};
    QByteArray url;
    qsizetype retryLength = 0; // a send that returned CURLE_AGAIN is retried with its length

    ~Connection()
    {
        if (easy != nullptr)
            curl_easy_cleanup(easy);
    }
    curl_socket_t socket() const
    {
        curl_socket_t fd = CURL_SOCKET_BAD;
        if (curl_easy_getinfo(easy, CURLINFO_ACTIVESOCKET, &fd) != CURLE_OK)
            return CURL_SOCKET_BAD;
        return fd;
    }

    static int onProgress(void* self, curl_off_t, curl_off_t, curl_off_t, curl_off_t)
    {
        return static_cast<Connection*>(self)->abandoned.load() ? 1 : 0;
    }
};

WebSocket::WebSocket(QObject* parent) : QObject(parent)
{
    m_handshakeTimer.setSingleShot(true);
    m_handshakeTimer.setInterval(kHandshakeTimeoutMs);
    connect(&m_handshakeTimer, &QTimer::timeout, this, [this] {
        ApiError e;
        e.kind = ApiError::Kind::Timeout;
        e.message = QStringLiteral("the server did not answer the upgrade within %1 s")
                        .arg(kHandshakeTimeoutMs / 1000);
        e.what = m_what;
        fail(e);
    });
    m_closeTimer.setSingleShot(true);
    m_closeTimer.setInterval(kCloseTimeoutMs);
    connect(&m_closeTimer, &QTimer::timeout, this,
            [this] { finishClosed(m_closeCode, m_closeReason); });
}

WebSocket::~WebSocket()
{
    teardown();
}

void WebSocket::open(const HttpRequest& request, const QString& what)
{
    if (m_state != State::Idle)
        return;
    m_what = what;
    m_state = State::Connecting;
    const UrlParts parts = splitUrl(request.url);
    if (!parts.valid) {
        const ApiError e = protocolError(
            QStringLiteral("not a WebSocket URL: %1").arg(QString::fromUtf8(request.url)), what);
        QMetaObject::invokeMethod(
            this, [this, e] { fail(e); }, Qt::QueuedConnection);
        return;
    }
    m_key = makeKey();
    m_out = upgradeRequest(parts.target, parts.host, m_key, request.headers);

    curlGlobalInit();
    auto conn = std::make_shared<Connection>();
    conn->url = curlUrl(request.url);
    conn->easy = curl_easy_init();
    CURL* easy = conn->easy;
    curl_easy_setopt(easy, CURLOPT_URL, conn->url.constData());
    curl_easy_setopt(easy, CURLOPT_CONNECT_ONLY, 1L);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, conn->errorBuffer);
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, request.connectTimeoutMs);
    // As for every call (curltransfer.cpp): loopback never through the user's proxy; otherwise
    // the environment's. Through an HTTP proxy always as a CONNECT tunnel, so the request we
    // write ourselves reaches the server as it is.
    if (isLoopbackHost(QUrl(QString::fromUtf8(conn->url)).host()))
        curl_easy_setopt(easy, CURLOPT_PROXY, "");
    curl_easy_setopt(easy, CURLOPT_HTTPPROXYTUNNEL, 1L);
    applyTlsOptions(easy, request.caFile);
    // An upgrade is HTTP/1.1 only: ALPN must not settle on h2.
    curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, long(CURL_HTTP_VERSION_1_1));
    if (curl_slist* resolve = testResolveList())
        curl_easy_setopt(easy, CURLOPT_RESOLVE, resolve);
    // A socket destroyed while its connect runs stops it (at curl's next progress check).
    curl_easy_setopt(easy, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(easy, CURLOPT_XFERINFOFUNCTION, &Connection::onProgress);
    curl_easy_setopt(easy, CURLOPT_XFERINFODATA, conn.get());
    m_conn = conn;

    // With CONNECT_ONLY, curl_easy_perform returns once connected (TLS and proxy tunnel done):
    // a remote host may take seconds, so it runs off the event loop's thread. The handle is
    // used by one thread at a time: the pool thread until the result comes back, then ours.
    using Result = std::pair<int, QString>;
    runOffThread<Result>(
        this,
        [conn] {
            const CURLcode code = curl_easy_perform(conn->easy);
            return Result(int(code),
                          code == CURLE_OK ? QString() : QString::fromUtf8(conn->errorBuffer));
        },
        [this, conn](Result result) {
            if (m_conn == conn)
                onConnected(result.first, result.second);
        });
}

void WebSocket::onConnected(int curlCode, const QString& curlError)
{
    if (m_state != State::Connecting)
        return;
    if (curlCode != CURLE_OK) {
        fail(mapTransportError(curlCode, curlError, m_what));
        return;
    }
    const curl_socket_t fd = m_conn->socket();
    if (fd == CURL_SOCKET_BAD) {
        fail(mapTransportError(CURLE_COULDNT_CONNECT, QStringLiteral("no socket after connect"),
                               m_what));
        return;
    }
    m_state = State::Handshaking;
    m_readNotifier = new QSocketNotifier(qintptr(fd), QSocketNotifier::Read, this);
    connect(m_readNotifier, &QSocketNotifier::activated, this, &WebSocket::onReadable);
    m_writeNotifier = new QSocketNotifier(qintptr(fd), QSocketNotifier::Write, this);
    m_writeNotifier->setEnabled(false);
    connect(m_writeNotifier, &QSocketNotifier::activated, this, &WebSocket::onWritable);
    m_handshakeTimer.start();
    flush();
}

bool WebSocket::sendBinary(const QByteArray& data)
{
    return queueFrame(Opcode::Binary, data);
}

bool WebSocket::sendText(const QByteArray& utf8)
{
    return queueFrame(Opcode::Text, utf8);
}

bool WebSocket::queueFrame(Opcode opcode, const QByteArray& payload)
{
    if (m_state != State::Open && !(opcode == Opcode::Close && m_state == State::Closing))
        return false;
    m_out.append(encodeFrame(opcode, payload, true, randomMask()));
    flush();
    return true;
}

void WebSocket::close(int code, const QString& reason)
{
    switch (m_state) {
    case State::Idle:
    case State::Closing:
    case State::Closed:
        return;
    case State::Connecting:
    case State::Handshaking:
        teardown();
        m_state = State::Closed;
        QMetaObject::invokeMethod(
            this, [this, code] { emit closed(code, {}); }, Qt::QueuedConnection);
        return;
    case State::Open:
        m_state = State::Closing;
        m_closeSent = true;
        m_closeCode = code;
        m_closeReason = reason;
        queueFrame(Opcode::Close, encodeClosePayload(code, reason));
        m_closeTimer.start();
        return;
    }
}

void WebSocket::dropConnectionForTest()
{
    if (m_conn == nullptr || m_state == State::Connecting)
        return;
    const curl_socket_t fd = m_conn->socket();
    if (fd != CURL_SOCKET_BAD)
        ::shutdown(fd, SHUT_RDWR);
}

void WebSocket::setReadPaused(bool paused)
{
    if (m_readPaused == paused)
        return;
    m_readPaused = paused;
    if (m_readNotifier != nullptr)
        m_readNotifier->setEnabled(!paused);
    // TLS may hold bytes already read from the socket: no readiness would come for them.
    if (!paused)
        QMetaObject::invokeMethod(this, &WebSocket::onReadable, Qt::QueuedConnection);
}

void WebSocket::onReadable()
{
    if (m_conn == nullptr || m_state == State::Closed || m_readPaused)
        return;
    bool ended = false;
    if (!readAvailable(&ended))
        return;
    process(ended);
}

bool WebSocket::readAvailable(bool* ended)
{
    char buffer[16 * 1024];
    qsizetype total = 0;
    for (;;) {
        size_t n = 0;
        const CURLcode rc = curl_easy_recv(m_conn->easy, buffer, sizeof buffer, &n);
        if (rc == CURLE_AGAIN)
            return true;
        if (rc != CURLE_OK) {
            if (m_state == State::Closing) { // the server may drop the line after its close
                *ended = true;
                return true;
            }
            fail(connectionLost(QString::fromUtf8(curl_easy_strerror(rc)), m_what));
            return false;
        }
        if (n == 0) {
            *ended = true;
            return true;
        }
        m_in.append(buffer, qsizetype(n));
        total += qsizetype(n);
        if (total >= kReadPerTurn || m_readPaused) {
            // The rest in a later turn, so a flood of output cannot hold the event loop. TLS
            // may already hold the bytes (no readiness will come), hence the queued call.
            QMetaObject::invokeMethod(this, &WebSocket::onReadable, Qt::QueuedConnection);
            return true;
        }
    }
}

void WebSocket::process(bool ended)
{
    const QPointer<WebSocket> self(this);
    if (m_state == State::Handshaking) {
        if (!processHandshake(ended) || self == nullptr)
            return;
    }
    if (m_state == State::Open || m_state == State::Closing)
        processFrames();
    if (self == nullptr || !ended)
        return;
    if (m_state == State::Open)
        fail(connectionLost(QStringLiteral("the server ended the connection without a close frame"),
                            m_what));
    else if (m_state == State::Closing)
        finishClosed(m_closeCode, m_closeReason);
}

bool WebSocket::processHandshake(bool ended)
{
    if (!m_gotHead) {
        const HeadResult r = parseResponseHead(m_in);
        if (r.status == HeadResult::Status::Error) {
            fail(protocolError(r.error, m_what));
            return false;
        }
        if (r.status == HeadResult::Status::NeedMore) {
            if (ended)
                fail(connectionLost(QStringLiteral("the server closed the connection before it "
                                                   "answered the upgrade"),
                                    m_what));
            return false;
        }
        m_head = r.head;
        m_gotHead = true;
    }
    if (m_head.status == 101) {
        const QString why = checkUpgrade(m_head, m_key);
        if (!why.isEmpty()) {
            fail(protocolError(why, m_what, 101));
            return false;
        }
        m_in.remove(0, m_head.headSize);
        m_handshakeTimer.stop();
        m_state = State::Open;
        const QPointer<WebSocket> self(this);
        emit opened();
        return self != nullptr;
    }
    // An error answer: its JSON body says why, as for any call.
    const QByteArray rest = m_in.mid(m_head.headSize);
    std::optional<QByteArray> body = responseBody(m_head, rest, ended);
    if (!body && rest.size() > kMaxErrorBody)
        body = rest.left(kMaxErrorBody);
    if (!body)
        return false;
    ApiError e = mapHttpError(m_head.status, *body, m_head.headers, m_what, m_head.reason);
    if (m_head.status == 200)
        e = protocolError(QStringLiteral("the server answered 200 instead of upgrading to a "
                                         "WebSocket"),
                          m_what, 200);
    fail(e);
    return false;
}

void WebSocket::processFrames()
{
    const QPointer<WebSocket> self(this);
    qsizetype offset = 0;
    while (self != nullptr && (m_state == State::Open || m_state == State::Closing)) {
        const Decoded d = decodeFrame(QByteArrayView(m_in).sliced(offset), kMaxMessageBytes);
        if (d.status == Decoded::Status::NeedMore)
            break;
        if (d.status == Decoded::Status::Error) {
            protocolFailure(d.closeCode, d.error);
            return;
        }
        offset += d.consumed;
        if (d.frame.masked) {
            protocolFailure(close::ProtocolError, QStringLiteral("the server masked a frame"));
            return;
        }
        MessageAssembler::Result r = m_assembler.add(d.frame);
        switch (r.status) {
        case MessageAssembler::Result::Status::Partial:
            break;
        case MessageAssembler::Result::Status::Error:
            protocolFailure(r.closeCode, r.error);
            return;
        case MessageAssembler::Result::Status::Control:
            handleControl(r.opcode, r.payload);
            break;
        case MessageAssembler::Result::Status::Message:
            // After close() the caller wants no more messages.
            if (m_state != State::Open)
                break;
            if (r.opcode == Opcode::Text)
                emit textMessage(r.payload);
            else
                emit binaryMessage(r.payload);
            break;
        }
    }
    if (self != nullptr)
        m_in.remove(0, std::min(offset, m_in.size()));
}

void WebSocket::handleControl(Opcode opcode, const QByteArray& payload)
{
    switch (opcode) {
    case Opcode::Ping:
        queueFrame(Opcode::Pong, payload);
        return;
    case Opcode::Close: {
        const std::optional<ClosePayload> c = decodeClosePayload(payload);
        if (!c) {
            protocolFailure(close::ProtocolError, QStringLiteral("a malformed close frame"));
            return;
        }
        if (!m_closeSent) {
            // Echo the code (RFC 6455 §5.5.1); a close without a code is answered without one.
            m_state = State::Closing;
            m_closeSent = true;
            queueFrame(Opcode::Close,
                       c->code == close::NoStatus ? QByteArray() : encodeClosePayload(c->code));
        }
        finishClosed(c->code, c->reason);
        return;
    }
    default:
        return; // Pong: we send no pings
    }
}

void WebSocket::protocolFailure(int closeCode, const QString& why)
{
    if (!m_closeSent && (m_state == State::Open || m_state == State::Closing)) {
        m_state = State::Closing;
        m_closeSent = true;
        queueFrame(Opcode::Close, encodeClosePayload(closeCode));
    }
    fail(protocolError(why, m_what));
}

void WebSocket::onWritable()
{
    const qsizetype before = m_out.size();
    flush();
    if (m_out.size() < before && m_state != State::Closed)
        emit bytesWritten();
}

void WebSocket::flush()
{
    QString error;
    if (drain(&error))
        return;
    // Also from inside a send or close call: reported from the event loop, never re-entrantly.
    const ApiError e = connectionLost(error, m_what);
    m_out.clear();
    teardown();
    m_state = State::Closed;
    QMetaObject::invokeMethod(
        this, [this, e] { emit failed(e); }, Qt::QueuedConnection);
}

bool WebSocket::drain(QString* error)
{
    if (m_conn == nullptr || m_state == State::Connecting || m_state == State::Closed)
        return true;
    while (!m_out.isEmpty()) {
        // A TLS write that returned CURLE_AGAIN must be retried with the same bytes; m_out only
        // grows at its end, so its first retryLength bytes are those.
        const qsizetype length = m_conn->retryLength > 0
                                     ? std::min(m_conn->retryLength, m_out.size())
                                     : std::min(m_out.size(), kSendChunk);
        size_t sent = 0;
        const CURLcode rc = curl_easy_send(m_conn->easy, m_out.constData(), size_t(length), &sent);
        if (rc == CURLE_AGAIN) {
            m_conn->retryLength = length;
            if (m_writeNotifier != nullptr)
                m_writeNotifier->setEnabled(true);
            return true;
        }
        m_conn->retryLength = 0;
        if (rc != CURLE_OK) {
            *error = QString::fromUtf8(curl_easy_strerror(rc));
            return false;
        }
        m_out.remove(0, qsizetype(sent));
    }
    if (m_writeNotifier != nullptr)
        m_writeNotifier->setEnabled(false);
    return true;
}

void WebSocket::finishClosed(int code, const QString& reason)
{
    if (m_state == State::Closed)
        return;
    QString ignored;
    drain(&ignored); // our close frame, if the socket takes it now
    teardown();
    m_state = State::Closed;
    emit closed(code, reason);
}

void WebSocket::fail(const ApiError& error)
{
    if (m_state == State::Closed)
        return;
    QString ignored;
    drain(&ignored); // a close frame queued for the server, if any
    teardown();
    m_state = State::Closed;
    emit failed(error);
}

void WebSocket::teardown()
{
    m_handshakeTimer.stop();
    m_closeTimer.stop();
    // The notifiers go before the socket they watch is closed; deleted later, as this may run
    // from one of their own signals.
    for (QSocketNotifier** n : {&m_readNotifier, &m_writeNotifier}) {
        if (*n != nullptr) {
            (*n)->setEnabled(false);
            (*n)->deleteLater();
            *n = nullptr;
        }
    }
    if (m_conn != nullptr) {
        m_conn->abandoned = true;
        m_conn.reset();
    }
}

} // namespace lizard::client
