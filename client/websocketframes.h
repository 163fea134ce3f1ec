#pragma once
// RFC 6455 as pure functions, for client/websocket.h: the opening handshake (the request, the
// answer's head and body, Sec-WebSocket-Accept), frames (encode, masked or not; decode from a
// buffer that may hold less than a frame), fragmented messages and close payloads. No I/O, so
// the codec is tested byte by byte (tests/client/tst_websocketframes.cpp).

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QPair>
#include <QString>
#include <array>
#include <optional>

namespace lizard::client::wsframes {

enum class Opcode : quint8 {
    Continuation = 0x0,
    Text = 0x1,
    Binary = 0x2,
    Close = 0x8,
    Ping = 0x9,
    Pong = 0xA,
};

inline bool isControl(Opcode op)
{
    return (quint8(op) & 0x8) != 0;
}

// Close codes of RFC 6455 §7.4.1 that this client sends or reads.
namespace close {
constexpr int Normal = 1000;
constexpr int GoingAway = 1001;
constexpr int ProtocolError = 1002;
constexpr int NoStatus = 1005;    // never sent: the peer's close frame had no code
constexpr int Abnormal = 1006;    // never sent: the connection ended without a close frame
constexpr int InvalidData = 1007; // a text message that is not UTF-8
constexpr int TooBig = 1009;
} // namespace close

using MaskKey = std::array<quint8, 4>;

// XORs data with the mask, `offset` bytes into the masked stream (so a payload can be masked in
// pieces). Masking twice with the same key gives the original.
void applyMask(char* data, qsizetype size, const MaskKey& mask, qsizetype offset = 0);

// One frame on the wire. A client sends its frames masked (RFC 6455 §5.3); a server must not.
QByteArray encodeFrame(Opcode opcode, const QByteArray& payload, bool fin,
                       const std::optional<MaskKey>& mask);

struct Frame
{
    bool fin = true;
    Opcode opcode = Opcode::Binary;
    bool masked = false;
    QByteArray payload; // unmasked
};

struct Decoded
{
    enum class Status { NeedMore, Frame, Error };
    Status status = Status::NeedMore;
    Frame frame;            // Status::Frame
    qsizetype consumed = 0; // bytes of the buffer the frame took
    int closeCode = 0;      // Status::Error: the close code to send (1002, 1009)
    QString error;          // Status::Error: what is wrong
};

// The first frame of buffer. NeedMore: the buffer ends inside the frame (nothing consumed).
// Error: reserved bits or opcodes, a control frame that is fragmented or longer than 125
// bytes, a 64-bit length with its top bit set, or a payload above maxPayload (1009).
Decoded decodeFrame(QByteArrayView buffer, qint64 maxPayload);

// Joins fragments into messages and keeps control frames apart (they may come between the
// fragments of a message).
class MessageAssembler
{
public:
    explicit MessageAssembler(qint64 maxMessage) : m_max(maxMessage) {}

    struct Result
    {
        enum class Status { Partial, Message, Control, Error };
        Status status = Status::Partial;
        Opcode opcode = Opcode::Binary; // Message: Text or Binary; Control: Close, Ping, Pong
        QByteArray payload;
        int closeCode = 0; // Error
        QString error;     // Error
    };
    Result add(Frame frame);
    bool inMessage() const { return m_inMessage; }

private:
    qint64 m_max;
    bool m_inMessage = false;
    Opcode m_opcode = Opcode::Binary;
    QByteArray m_data;
};

// A close frame's payload: the code (none: NoStatus) and the UTF-8 reason.
struct ClosePayload
{
    int code = close::NoStatus;
    QString reason;
};
QByteArray encodeClosePayload(int code, const QString& reason = {});
// nullopt: one byte, a code that may not be sent (RFC 6455 §7.4), or a reason not UTF-8.
std::optional<ClosePayload> decodeClosePayload(const QByteArray& payload);

bool isValidUtf8(const QByteArray& text);

// --- The opening handshake (RFC 6455 §4) ---

// A random Sec-WebSocket-Key: 16 random bytes in base64.
QByteArray makeKey();
// base64(SHA-1(key + the RFC's GUID)): what the server must answer in Sec-WebSocket-Accept.
QByteArray acceptFor(const QByteArray& key);

// "GET <target> HTTP/1.1" with Host, Upgrade, Connection, Sec-WebSocket-Key and -Version, then
// `headers` ("Name: value", e.g. the API key and User-Agent).
QByteArray upgradeRequest(const QByteArray& target, const QByteArray& host, const QByteArray& key,
                          const QList<QByteArray>& headers);

// The host[:port] and path?query of an http(s):// or ws(s):// URL, as the request line and the
// Host header want them (the port only when it is not the scheme's default).
struct UrlParts
{
    QByteArray host;
    QByteArray target;
    bool valid = false;
};
UrlParts splitUrl(const QByteArray& url);

// The head of the server's answer.
struct ResponseHead
{
    int status = 0;
    QByteArray reason;
    QList<QPair<QByteArray, QByteArray>> headers; // names lower-case
    qsizetype headSize = 0;                       // bytes up to and including the blank line

    QByteArray header(const QByteArray& lowerName) const;
};
struct HeadResult
{
    enum class Status { NeedMore, Head, Error };
    Status status = Status::NeedMore;
    ResponseHead head;
    QString error;
};
// Error: no HTTP status line, or no blank line within maxHeadBytes.
HeadResult parseResponseHead(const QByteArray& bytes, qsizetype maxHeadBytes = 16 * 1024);

// What is wrong with a 101 answer to a request made with `key` (empty: nothing).
QString checkUpgrade(const ResponseHead& head, const QByteArray& key);

// The body of a non-101 answer, from the bytes after its head: Content-Length, chunked, or (with
// neither) everything until the connection ends (`ended`). nullopt: more bytes are needed.
std::optional<QByteArray> responseBody(const ResponseHead& head, const QByteArray& afterHead,
                                       bool ended);

} // namespace lizard::client::wsframes
