#pragma once
// The client side of a desktop stream, without I/O: what a desktop URL holds, the WebSocket
// framing websockify speaks, and RFB 3.8 with VNC authentication (RFC 6143). The desktop suite's
// blocking client and the desktop bench's native viewer (on the event loop) both drive these.

#include <QByteArray>
#include <QList>
#include <QString>

namespace lizard::rfb {

// What a desktop URL holds: the proxy's address, its token and the VNC password.
struct DesktopUrl
{
    QString hostname; // "127.x.y.z:PORT"
    QString token;
    QString password;
    QString pathAndQueryWithoutToken;

    QString address() const { return hostname.section(':', 0, 0); }
    quint16 port() const { return quint16(hostname.section(':', 1, 1).toUInt()); }
};

DesktopUrl parseDesktopUrl(const QString& url);

// The HTTP request that opens the stream: a WebSocket upgrade of /websockify carrying the token.
QByteArray upgradeRequest(const DesktopUrl& url);

// One masked binary WebSocket frame (a client must mask) holding `payload`.
QByteArray webSocketFrame(const QByteArray& payload);

// Server frames arrive in pieces: append what was read, then take whole frames' payloads.
class WebSocketReader
{
public:
    void append(const QByteArray& bytes) { m_buffer += bytes; }
    // The payload of binary and continuation frames whole in the buffer (others are dropped).
    QByteArray takePayload();
    bool closed() const { return m_closed; } // a close frame came
    QByteArray& buffer() { return m_buffer; }

private:
    QByteArray m_buffer;
    bool m_closed = false;
};

// DES of the challenge with the password as key, each key byte's bits mirrored (RFB 7.2.2).
QByteArray vncAuthResponse(const QByteArray& challenge, const QByteArray& password);

// The client's half of the handshake up to ServerInit, fed the RFB bytes as they come.
class Handshake
{
public:
    enum class State { Working, Ready, Failed };

    explicit Handshake(QByteArray password) : m_password(std::move(password)) {}
    // Consumes what it can of `in` and returns the bytes to send (possibly none). Once Ready,
    // what follows ServerInit stays in `in`.
    QByteArray feed(QByteArray& in);
    State state() const { return m_state; }
    QString error() const { return m_error; }
    int width() const { return m_width; } // the framebuffer's, from ServerInit
    int height() const { return m_height; }
    // What it waits for, to name a stall: "the server's version", "the challenge", ...
    QString waitingFor() const;

private:
    enum class Step { Version, SecurityTypes, Challenge, Result, ServerInit, Done };
    QByteArray fail(const QString& why);

    QByteArray m_password;
    Step m_step = Step::Version;
    State m_state = State::Working;
    QString m_error;
    int m_width = 0;
    int m_height = 0;
};

// Client messages (RFB 7.5).
QByteArray pointerEvent(int x, int y, int buttonMask);
QByteArray keyEvent(quint32 keysym, bool down);
// 32 bits per pixel, depth 24, little endian, true colour 0xRRGGBB: QImage::Format_RGB32.
QByteArray setPixelFormatRgb32();
QByteArray setEncodings(const QList<qint32>& encodings);
QByteArray updateRequest(bool incremental, int x, int y, int width, int height);

constexpr qint32 kEncodingRaw = 0;
constexpr qint32 kEncodingCopyRect = 1;
constexpr qint32 kEncodingDesktopSize = -223;

} // namespace lizard::rfb
