#include "rfbwire.h"

#include <QRandomGenerator>
#include <QUrl>
#include <QUrlQuery>
#include <QtEndian>

#define OPENSSL_SUPPRESS_DEPRECATED // single DES is what VNC authentication uses
#include <cstring>
#include <openssl/des.h>

namespace lizard::rfb {

DesktopUrl parseDesktopUrl(const QString& url)
{
    const QUrl u(url);
    QUrlQuery q(u);
    DesktopUrl d;
    d.hostname = u.host() + ":" + QString::number(u.port());
    d.token = q.queryItemValue("lizard_token");
    d.password = q.queryItemValue("password");
    q.removeQueryItem("lizard_token");
    d.pathAndQueryWithoutToken = u.path() + "?" + q.toString(QUrl::FullyEncoded);
    return d;
}

QByteArray upgradeRequest(const DesktopUrl& url)
{
    QByteArray key(16, '\0');
    for (auto& c : key)
        c = char(QRandomGenerator::global()->bounded(256));
    return "GET /websockify HTTP/1.1\r\nHost: " + url.hostname.toLatin1() +
           "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
           "Sec-WebSocket-Key: " +
           key.toBase64() +
           "\r\nSec-WebSocket-Protocol: binary\r\n"
           "X-Lizard-Access-Token: " +
           url.token.toLatin1() + "\r\n\r\n";
}

QByteArray webSocketFrame(const QByteArray& payload)
{
    QByteArray frame;
    frame.append(char(0x82));
    if (payload.size() < 126) {
        frame.append(char(0x80 | payload.size()));
    } else if (payload.size() < 65536) {
        frame.append(char(0x80 | 126));
        frame.append(char(payload.size() >> 8)).append(char(payload.size() & 0xff));
    } else {
        frame.append(char(0x80 | 127));
        QByteArray length(8, '\0');
        qToBigEndian<quint64>(quint64(payload.size()), length.data());
        frame += length;
    }
    const quint32 mask = QRandomGenerator::global()->generate();
    const char m[4] = {char(mask >> 24), char(mask >> 16), char(mask >> 8), char(mask)};
    frame.append(m, 4);
    for (int i = 0; i < payload.size(); ++i)
        frame.append(char(payload[i] ^ m[i & 3]));
    return frame;
}

QByteArray WebSocketReader::takePayload()
{
    QByteArray out;
    for (;;) {
        const QByteArray& b = m_buffer;
        if (b.size() < 2)
            return out;
        const int opcode = b[0] & 0x0f;
        qint64 length = b[1] & 0x7f;
        int header = 2;
        if (length == 126) {
            if (b.size() < 4)
                return out;
            length = qFromBigEndian<quint16>(b.constData() + 2);
            header = 4;
        } else if (length == 127) {
            if (b.size() < 10)
                return out;
            length = qint64(qFromBigEndian<quint64>(b.constData() + 2));
            header = 10;
        }
        if (b.size() < header + length)
            return out;
        if (opcode == 0x2 || opcode == 0x0)
            out += b.mid(header, int(length));
        if (opcode == 0x8)
            m_closed = true;
        m_buffer.remove(0, header + int(length));
    }
}

QByteArray vncAuthResponse(const QByteArray& challenge, const QByteArray& password)
{
    const QByteArray pw = password.left(8).leftJustified(8, '\0');
    DES_cblock key;
    for (int i = 0; i < 8; ++i) {
        unsigned char b = uchar(pw[i]), r = 0;
        for (int bit = 0; bit < 8; ++bit)
            r |= ((b >> bit) & 1) << (7 - bit);
        key[i] = r;
    }
    DES_key_schedule schedule;
    DES_set_key_unchecked(&key, &schedule);
    QByteArray out(16, '\0');
    for (int block = 0; block < 2; ++block) {
        DES_cblock in, o;
        std::memcpy(in, challenge.constData() + 8 * block, 8);
        DES_ecb_encrypt(&in, &o, &schedule, DES_ENCRYPT);
        std::memcpy(out.data() + 8 * block, o, 8);
    }
    return out;
}

QByteArray Handshake::fail(const QString& why)
{
    m_state = State::Failed;
    m_error = why;
    return {};
}

QString Handshake::waitingFor() const
{
    switch (m_step) {
    case Step::Version:
        return QStringLiteral("the server's version");
    case Step::SecurityTypes:
        return QStringLiteral("the security types");
    case Step::Challenge:
        return QStringLiteral("the challenge");
    case Step::Result:
        return QStringLiteral("the authentication result");
    case Step::ServerInit:
        return QStringLiteral("ServerInit");
    case Step::Done:
        break;
    }
    return {};
}

QByteArray Handshake::feed(QByteArray& in)
{
    QByteArray out;
    // Takes `n` bytes off the front of `in`, or nothing while fewer have come.
    const auto take = [&in](int n, QByteArray* bytes) {
        if (in.size() < n)
            return false;
        *bytes = in.left(n);
        in.remove(0, n);
        return true;
    };
    QByteArray b;
    while (m_state == State::Working) {
        switch (m_step) {
        case Step::Version:
            if (!take(12, &b))
                return out;
            if (!b.startsWith("RFB 003."))
                return fail("not an RFB server: " + QString::fromLatin1(b));
            out += "RFB 003.008\n";
            m_step = Step::SecurityTypes;
            break;
        case Step::SecurityTypes: {
            if (in.isEmpty())
                return out;
            const int count = quint8(in[0]);
            if (count == 0 || in.size() < 1 + count) {
                if (count == 0)
                    return fail("no VNC authentication offered");
                return out;
            }
            take(1 + count, &b);
            if (!b.mid(1).contains(char(2)))
                return fail("no VNC authentication offered");
            out += QByteArray(1, char(2));
            m_step = Step::Challenge;
            break;
        }
        case Step::Challenge:
            if (!take(16, &b))
                return out;
            out += vncAuthResponse(b, m_password);
            m_step = Step::Result;
            break;
        case Step::Result:
            if (!take(4, &b))
                return out;
            if (qFromBigEndian<quint32>(b.constData()) != 0)
                return fail("authentication refused");
            out += QByteArray(1, char(1)); // ClientInit: shared
            m_step = Step::ServerInit;
            break;
        case Step::ServerInit: {
            if (in.size() < 24)
                return out;
            const int nameLength = int(qFromBigEndian<quint32>(in.constData() + 20));
            if (in.size() < 24 + nameLength)
                return out;
            m_width = qFromBigEndian<quint16>(in.constData());
            m_height = qFromBigEndian<quint16>(in.constData() + 2);
            in.remove(0, 24 + nameLength);
            m_step = Step::Done;
            m_state = State::Ready;
            break;
        }
        case Step::Done:
            return out;
        }
    }
    return out;
}

QByteArray pointerEvent(int x, int y, int buttonMask)
{
    QByteArray m(6, '\0');
    m[0] = 5;
    m[1] = char(buttonMask);
    qToBigEndian<quint16>(quint16(x), m.data() + 2);
    qToBigEndian<quint16>(quint16(y), m.data() + 4);
    return m;
}

QByteArray keyEvent(quint32 keysym, bool down)
{
    QByteArray m(8, '\0');
    m[0] = 4;
    m[1] = down ? 1 : 0;
    qToBigEndian<quint32>(keysym, m.data() + 4);
    return m;
}

QByteArray setPixelFormatRgb32()
{
    QByteArray m(20, '\0');
    m[0] = 0; // SetPixelFormat, then 3 bytes of padding
    char* f = m.data() + 4;
    f[0] = 32; // bits per pixel
    f[1] = 24; // depth
    f[2] = 0;  // little endian
    f[3] = 1;  // true colour
    qToBigEndian<quint16>(255, f + 4);
    qToBigEndian<quint16>(255, f + 6);
    qToBigEndian<quint16>(255, f + 8);
    f[10] = 16; // red shift
    f[11] = 8;  // green shift
    f[12] = 0;  // blue shift
    return m;
}

QByteArray setEncodings(const QList<qint32>& encodings)
{
    QByteArray m(4 + 4 * encodings.size(), '\0');
    m[0] = 2;
    qToBigEndian<quint16>(quint16(encodings.size()), m.data() + 2);
    for (int i = 0; i < encodings.size(); ++i)
        qToBigEndian<qint32>(encodings[i], m.data() + 4 + 4 * i);
    return m;
}

QByteArray updateRequest(bool incremental, int x, int y, int width, int height)
{
    QByteArray m(10, '\0');
    m[0] = 3;
    m[1] = incremental ? 1 : 0;
    qToBigEndian<quint16>(quint16(x), m.data() + 2);
    qToBigEndian<quint16>(quint16(y), m.data() + 4);
    qToBigEndian<quint16>(quint16(width), m.data() + 6);
    qToBigEndian<quint16>(quint16(height), m.data() + 8);
    return m;
}

} // namespace lizard::rfb
