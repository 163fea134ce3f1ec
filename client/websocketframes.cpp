#include "client/websocketframes.h"

#include <QCryptographicHash>
#include <QRandomGenerator>
#include <QStringDecoder>
#include <QUrl>

namespace lizard::client::wsframes {

void applyMask(char* data, qsizetype size, const MaskKey& mask, qsizetype offset)
{
    for (qsizetype i = 0; i < size; ++i)
        data[i] = char(quint8(data[i]) ^ mask[size_t((offset + i) & 3)]);
}

QByteArray encodeFrame(Opcode opcode, const QByteArray& payload, bool fin,
                       const std::optional<MaskKey>& mask)
{
    QByteArray out;
    const quint64 length = quint64(payload.size());
    out.reserve(payload.size() + 14);
    out.append(char((fin ? 0x80 : 0x00) | quint8(opcode)));
    const quint8 maskBit = mask ? 0x80 : 0x00;
    if (length < 126) {
        out.append(char(maskBit | quint8(length)));
    } else if (length <= 0xFFFF) {
        out.append(char(maskBit | 126));
        out.append(char(length >> 8));
        out.append(char(length & 0xFF));
    } else {
        out.append(char(maskBit | 127));
        for (int shift = 56; shift >= 0; shift -= 8)
            out.append(char((length >> shift) & 0xFF));
    }
    if (mask) {
        for (quint8 b : *mask)
            out.append(char(b));
        const qsizetype at = out.size();
        out.append(payload);
        applyMask(out.data() + at, payload.size(), *mask);
    } else {
        out.append(payload);
    }
    return out;
}

namespace {

Decoded decodeError(int code, const QString& message)
{
    Decoded d;
    d.status = Decoded::Status::Error;
    d.closeCode = code;
    d.error = message;
    return d;
}

bool knownOpcode(quint8 op)
{
    return op <= 0x2 || (op >= 0x8 && op <= 0xA);
}

} // namespace

Decoded decodeFrame(QByteArrayView buffer, qint64 maxPayload)
{
    const auto* b = reinterpret_cast<const quint8*>(buffer.constData());
    const qsizetype have = buffer.size();
    if (have < 2)
        return {};
    const bool fin = (b[0] & 0x80) != 0;
    if ((b[0] & 0x70) != 0)
        return decodeError(close::ProtocolError,
                           QStringLiteral("a frame with reserved bits set (no extension agreed)"));
    const quint8 op = b[0] & 0x0F;
    if (!knownOpcode(op))
        return decodeError(close::ProtocolError,
                           QStringLiteral("a frame with the reserved opcode %1").arg(op));
    const auto opcode = Opcode(op);
    const bool masked = (b[1] & 0x80) != 0;
    quint64 length = b[1] & 0x7F;
    qsizetype at = 2;
    if (isControl(opcode) && (!fin || length > 125))
        return decodeError(close::ProtocolError,
                           QStringLiteral("a control frame that is fragmented or too long"));
    if (length == 126) {
        if (have < at + 2)
            return {};
        length = (quint64(b[2]) << 8) | b[3];
        at += 2;
    } else if (length == 127) {
        if (have < at + 8)
            return {};
        length = 0;
        for (int i = 0; i < 8; ++i)
            length = (length << 8) | b[at + i];
        at += 8;
        if ((length >> 63) != 0)
            return decodeError(close::ProtocolError,
                               QStringLiteral("a 64-bit frame length with its top bit set"));
    }
    // Refused before the payload arrives: a peer announcing 2^62 bytes must not make us wait
    // for (or buffer) them.
    if (length > quint64(maxPayload))
        return decodeError(
            close::TooBig,
            QStringLiteral("a frame of %1 bytes (at most %2)").arg(length).arg(maxPayload));
    MaskKey mask{};
    if (masked) {
        if (have < at + 4)
            return {};
        for (int i = 0; i < 4; ++i)
            mask[size_t(i)] = b[at + i];
        at += 4;
    }
    if (quint64(have - at) < length)
        return {};
    Decoded d;
    d.status = Decoded::Status::Frame;
    d.frame.fin = fin;
    d.frame.opcode = opcode;
    d.frame.masked = masked;
    d.frame.payload = buffer.sliced(at, qsizetype(length)).toByteArray();
    if (masked)
        applyMask(d.frame.payload.data(), d.frame.payload.size(), mask);
    d.consumed = at + qsizetype(length);
    return d;
}

MessageAssembler::Result MessageAssembler::add(Frame frame)
{
    Result r;
    const auto fail = [&r](int code, const QString& why) {
        r.status = Result::Status::Error;
        r.closeCode = code;
        r.error = why;
        return r;
    };
    if (isControl(frame.opcode)) {
        r.status = Result::Status::Control;
        r.opcode = frame.opcode;
        r.payload = std::move(frame.payload);
        return r;
    }
    if (frame.opcode == Opcode::Continuation) {
        if (!m_inMessage)
            return fail(close::ProtocolError, QStringLiteral("a continuation frame outside a "
                                                             "fragmented message"));
    } else {
        if (m_inMessage)
            return fail(close::ProtocolError,
                        QStringLiteral("a new message before the fragmented one ended"));
        m_inMessage = true;
        m_opcode = frame.opcode;
        m_data.clear();
    }
    if (qint64(m_data.size()) + frame.payload.size() > m_max) {
        m_inMessage = false;
        m_data.clear();
        return fail(close::TooBig, QStringLiteral("a message longer than %1 bytes").arg(m_max));
    }
    m_data.append(frame.payload);
    if (!frame.fin)
        return r; // Partial
    m_inMessage = false;
    r.opcode = m_opcode;
    r.payload = std::move(m_data);
    m_data = QByteArray();
    if (r.opcode == Opcode::Text && !isValidUtf8(r.payload))
        return fail(close::InvalidData, QStringLiteral("a text message that is not UTF-8"));
    r.status = Result::Status::Message;
    return r;
}

QByteArray encodeClosePayload(int code, const QString& reason)
{
    QByteArray out;
    out.append(char((code >> 8) & 0xFF));
    out.append(char(code & 0xFF));
    // A close frame's payload is a control frame's: at most 125 bytes, so 123 for the reason.
    QByteArray text = reason.toUtf8();
    if (text.size() > 123) {
        text.truncate(123);
        while (!text.isEmpty() && !isValidUtf8(text))
            text.chop(1); // the cut fell inside a character
    }
    out.append(text);
    return out;
}

std::optional<ClosePayload> decodeClosePayload(const QByteArray& payload)
{
    ClosePayload c;
    if (payload.isEmpty())
        return c;
    if (payload.size() == 1)
        return std::nullopt;
    c.code = (int(quint8(payload[0])) << 8) | quint8(payload[1]);
    const bool sendable = (c.code >= 1000 && c.code <= 1003) ||
                          (c.code >= 1007 && c.code <= 1011) || (c.code >= 3000 && c.code <= 4999);
    if (!sendable)
        return std::nullopt;
    const QByteArray reason = payload.mid(2);
    if (!isValidUtf8(reason))
        return std::nullopt;
    c.reason = QString::fromUtf8(reason);
    return c;
}

bool isValidUtf8(const QByteArray& text)
{
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    const QString decoded = decoder.decode(text);
    Q_UNUSED(decoded);
    return !decoder.hasError();
}

QByteArray makeKey()
{
    QByteArray raw(16, Qt::Uninitialized);
    QRandomGenerator::system()->generate(raw.begin(), raw.end());
    return raw.toBase64();
}

QByteArray acceptFor(const QByteArray& key)
{
    static const QByteArray guid = QByteArrayLiteral("258EAFA5-E914-47DA-95CA-C5AB0DC85B11");
    return QCryptographicHash::hash(key + guid, QCryptographicHash::Sha1).toBase64();
}

QByteArray upgradeRequest(const QByteArray& target, const QByteArray& host, const QByteArray& key,
                          const QList<QByteArray>& headers)
{
    QByteArray r = "GET " + target + " HTTP/1.1\r\n";
    r += "Host: " + host + "\r\n";
    r += "Upgrade: websocket\r\n";
    r += "Connection: Upgrade\r\n";
    r += "Sec-WebSocket-Key: " + key + "\r\n";
    r += "Sec-WebSocket-Version: 13\r\n";
    for (QByteArray h : headers) {
        // Header injection guard, as RequestBuilder's: a line break would start a new header.
        h.replace('\r', "").replace('\n', "");
        if (!h.isEmpty())
            r += h + "\r\n";
    }
    r += "\r\n";
    return r;
}

UrlParts splitUrl(const QByteArray& url)
{
    UrlParts parts;
    const QUrl parsed(QString::fromUtf8(url), QUrl::StrictMode);
    const QString scheme = parsed.scheme().toLower();
    int defaultPort = 0;
    if (scheme == QLatin1String("http") || scheme == QLatin1String("ws"))
        defaultPort = 80;
    else if (scheme == QLatin1String("https") || scheme == QLatin1String("wss"))
        defaultPort = 443;
    if (!parsed.isValid() || defaultPort == 0 || parsed.host().isEmpty())
        return parts;
    QByteArray host = parsed.host(QUrl::FullyEncoded).toUtf8();
    if (host.contains(':'))
        host = '[' + host + ']';
    if (parsed.port() > 0 && parsed.port() != defaultPort)
        host += ':' + QByteArray::number(parsed.port());
    // The target exactly as the caller encoded it: from the first '/' after the authority.
    const qsizetype authority = url.indexOf("://") + 3;
    qsizetype slash = url.indexOf('/', authority);
    const qsizetype query = url.indexOf('?', authority);
    if (query >= 0 && (slash < 0 || query < slash))
        slash = -1; // "http://host?x": a query and no path
    QByteArray target = slash >= 0 ? url.mid(slash) : QByteArray("/");
    if (slash < 0 && query >= 0)
        target += url.mid(query);
    if (const qsizetype hash = target.indexOf('#'); hash >= 0)
        target.truncate(hash);
    parts.host = host;
    parts.target = target;
    parts.valid = true;
    return parts;
}

QByteArray ResponseHead::header(const QByteArray& lowerName) const
{
    for (const auto& h : headers)
        if (h.first == lowerName)
            return h.second;
    return {};
}

HeadResult parseResponseHead(const QByteArray& bytes, qsizetype maxHeadBytes)
{
    HeadResult result;
    const auto fail = [&result](const QString& why) {
        result.status = HeadResult::Status::Error;
        result.error = why;
        return result;
    };
    if (bytes.size() >= 5 && !bytes.startsWith("HTTP/"))
        return fail(QStringLiteral("the server did not answer in HTTP"));
    const qsizetype end = bytes.indexOf("\r\n\r\n");
    if (end < 0 || end + 4 > maxHeadBytes) {
        if (bytes.size() > maxHeadBytes || end + 4 > maxHeadBytes)
            return fail(
                QStringLiteral("the answer's head is longer than %1 bytes").arg(maxHeadBytes));
        return result; // NeedMore
    }
    const QList<QByteArray> lines = bytes.left(end).split('\n');
    const QByteArray statusLine = lines.first().trimmed();
    const qsizetype sp1 = statusLine.indexOf(' ');
    if (sp1 < 0)
        return fail(QStringLiteral("a malformed status line"));
    const qsizetype sp2 = statusLine.indexOf(' ', sp1 + 1);
    bool ok = false;
    const int status = statusLine.mid(sp1 + 1, sp2 < 0 ? -1 : sp2 - sp1 - 1).toInt(&ok);
    if (!ok || status < 100 || status > 999)
        return fail(QStringLiteral("a malformed status line"));
    result.head.status = status;
    result.head.reason = sp2 < 0 ? QByteArray() : statusLine.mid(sp2 + 1);
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines.at(i).trimmed();
        const qsizetype colon = line.indexOf(':');
        if (colon > 0)
            result.head.headers.append(
                {line.left(colon).trimmed().toLower(), line.mid(colon + 1).trimmed()});
    }
    result.head.headSize = end + 4;
    result.status = HeadResult::Status::Head;
    return result;
}

namespace {

bool hasToken(const QByteArray& value, const QByteArray& token)
{
    for (const QByteArray& part : value.split(','))
        if (part.trimmed().toLower() == token)
            return true;
    return false;
}

} // namespace

QString checkUpgrade(const ResponseHead& head, const QByteArray& key)
{
    if (head.status != 101)
        return QStringLiteral("the server answered %1 instead of 101").arg(head.status);
    if (head.header("upgrade").trimmed().toLower() != "websocket")
        return QStringLiteral("the server's 101 did not upgrade to websocket");
    if (!hasToken(head.header("connection"), "upgrade"))
        return QStringLiteral("the server's 101 has no Connection: Upgrade");
    if (head.header("sec-websocket-accept").trimmed() != acceptFor(key))
        return QStringLiteral("the server's Sec-WebSocket-Accept does not match the key");
    if (!head.header("sec-websocket-extensions").isEmpty())
        return QStringLiteral("the server chose an extension that was not offered");
    return {};
}

namespace {

// A chunked body: nullopt until its last chunk arrived.
std::optional<QByteArray> dechunk(const QByteArray& bytes)
{
    QByteArray body;
    qsizetype at = 0;
    for (;;) {
        const qsizetype lineEnd = bytes.indexOf("\r\n", at);
        if (lineEnd < 0)
            return std::nullopt;
        QByteArray sizeText = bytes.mid(at, lineEnd - at);
        if (const qsizetype semi = sizeText.indexOf(';'); semi >= 0)
            sizeText.truncate(semi);
        bool ok = false;
        const qint64 size = sizeText.trimmed().toLongLong(&ok, 16);
        if (!ok || size < 0)
            return body; // not chunked after all: what we have
        at = lineEnd + 2;
        if (size == 0)
            return body;
        if (bytes.size() < at + size + 2)
            return std::nullopt;
        body.append(bytes.mid(at, qsizetype(size)));
        at += qsizetype(size) + 2;
    }
}

} // namespace

std::optional<QByteArray> responseBody(const ResponseHead& head, const QByteArray& afterHead,
                                       bool ended)
{
    if (head.header("transfer-encoding").toLower().contains("chunked")) {
        if (auto body = dechunk(afterHead))
            return body;
        return ended ? std::optional<QByteArray>(afterHead) : std::nullopt;
    }
    const QByteArray length = head.header("content-length");
    if (!length.isEmpty()) {
        bool ok = false;
        const qint64 n = length.trimmed().toLongLong(&ok);
        if (ok && n >= 0) {
            if (afterHead.size() >= n)
                return afterHead.left(qsizetype(n));
            return ended ? std::optional<QByteArray>(afterHead) : std::nullopt;
        }
    }
    if (ended)
        return afterHead;
    return std::nullopt;
}

} // namespace lizard::client::wsframes
