#pragma once
// A minimal VNC client for the desktop suite: RFB 3.8 with VNC authentication, over the
// WebSocket that websockify serves in the sandbox, reached through the port proxy with the
// desktop URL's token. Enough to authenticate and send pointer and key events.

#include "proxy_support.h"

#include <QRandomGenerator>
#include <QUrl>
#include <QUrlQuery>
#include <QtEndian>

#define OPENSSL_SUPPRESS_DEPRECATED // single DES is what VNC authentication uses
#include <openssl/des.h>

namespace lizard::test {

// What a desktop URL holds: the proxy's address, its token and the VNC password.
struct DesktopUrl
{
    QString hostname; // "127.x.y.z:PORT"
    QString token;
    QString password;
    QString pathAndQueryWithoutToken;
};

inline DesktopUrl parseDesktopUrl(const QString& url)
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

class RfbClient
{
public:
    // Connects and authenticates; false with the reason in error(). width()/height() are the
    // framebuffer's, from the server's ServerInit.
    bool open(const DesktopUrl& url, const QString& password)
    {
        const QString address = url.hostname.section(':', 0, 0);
        if (!m_http.connectTo(address, quint16(url.hostname.section(':', 1, 1).toUInt())))
            return failed("cannot connect to " + url.hostname);
        QByteArray key(16, '\0');
        for (auto& c : key)
            c = char(QRandomGenerator::global()->bounded(256));
        const RawResponse r = m_http.exchange(
            rawRequest("GET", "/websockify", url.hostname.toLatin1(),
                       {"Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 13",
                        "Sec-WebSocket-Key: " + key.toBase64(), "Sec-WebSocket-Protocol: binary",
                        tokenHeader(url.token)},
                       {}, true),
            10000);
        if (r.status != 101)
            return failed(QString("WebSocket upgrade: HTTP %1 %2").arg(r.status).arg(r.error));
        const QByteArray version = read(12);
        if (!version.startsWith("RFB 003."))
            return failed("not an RFB server: " + QString::fromLatin1(version));
        send("RFB 003.008\n");
        const QByteArray countByte = read(1);
        const int count = countByte.isEmpty() ? 0 : quint8(countByte[0]);
        const QByteArray types = read(count);
        if (count == 0 || !types.contains(char(2)))
            return failed("no VNC authentication offered");
        send(QByteArray(1, char(2)));
        const QByteArray challenge = read(16);
        if (challenge.size() != 16)
            return failed("no challenge");
        send(vncResponse(challenge, password.toLatin1()));
        const QByteArray result = read(4);
        if (result.size() != 4 || qFromBigEndian<quint32>(result.constData()) != 0)
            return failed("authentication refused");
        send(QByteArray(1, char(1))); // ClientInit: shared
        const QByteArray init = read(24);
        if (init.size() != 24)
            return failed("no ServerInit");
        m_width = qFromBigEndian<quint16>(init.constData());
        m_height = qFromBigEndian<quint16>(init.constData() + 2);
        read(int(qFromBigEndian<quint32>(init.constData() + 20))); // the desktop's name
        return true;
    }

    void pointer(int x, int y, int buttonMask)
    {
        QByteArray m(6, '\0');
        m[0] = 5;
        m[1] = char(buttonMask);
        qToBigEndian<quint16>(quint16(x), m.data() + 2);
        qToBigEndian<quint16>(quint16(y), m.data() + 4);
        send(m);
    }
    void key(quint32 keysym, bool down)
    {
        QByteArray m(8, '\0');
        m[0] = 4;
        m[1] = down ? 1 : 0;
        qToBigEndian<quint32>(keysym, m.data() + 4);
        send(m);
    }
    // A click of `button` (1 left, 3 right) at (x, y).
    void click(int x, int y, int button)
    {
        pointer(x, y, 0);
        pointer(x, y, 1 << (button - 1));
        pointer(x, y, 0);
    }
    void flush() { m_http.socket().waitForBytesWritten(5000); }

    int width() const { return m_width; }
    int height() const { return m_height; }
    QString error() const { return m_error; }

private:
    bool failed(const QString& why)
    {
        m_error = why;
        return false;
    }

    // DES of the challenge with the password as key, each key byte's bits mirrored (RFB 7.2.2).
    static QByteArray vncResponse(const QByteArray& challenge, QByteArray password)
    {
        password = password.left(8).leftJustified(8, '\0');
        DES_cblock key;
        for (int i = 0; i < 8; ++i) {
            unsigned char b = uchar(password[i]), r = 0;
            for (int bit = 0; bit < 8; ++bit)
                r |= ((b >> bit) & 1) << (7 - bit);
            key[i] = r;
        }
        DES_key_schedule schedule;
        DES_set_key_unchecked(&key, &schedule);
        QByteArray out(16, '\0');
        for (int block = 0; block < 2; ++block) {
            DES_cblock in, o;
            memcpy(in, challenge.constData() + 8 * block, 8);
            DES_ecb_encrypt(&in, &o, &schedule, DES_ENCRYPT);
            memcpy(out.data() + 8 * block, o, 8);
        }
        return out;
    }

    // One masked binary frame (a client must mask).
    void send(const QByteArray& payload)
    {
        QByteArray frame;
        frame.append(char(0x82));
        if (payload.size() < 126) {
            frame.append(char(0x80 | payload.size()));
        } else {
            frame.append(char(0x80 | 126));
            frame.append(char(payload.size() >> 8)).append(char(payload.size() & 0xff));
        }
        const quint32 mask = QRandomGenerator::global()->generate();
        const char m[4] = {char(mask >> 24), char(mask >> 16), char(mask >> 8), char(mask)};
        frame.append(m, 4);
        for (int i = 0; i < payload.size(); ++i)
            frame.append(char(payload[i] ^ m[i & 3]));
        m_http.socket().write(frame);
    }

    // `n` bytes of the RFB stream (fewer when the connection ended or stalled for 10 s).
    QByteArray read(int n)
    {
        while (m_in.size() < n && readFrame()) {
        }
        const QByteArray out = m_in.left(n);
        m_in.remove(0, out.size());
        return out;
    }

    bool need(int n)
    {
        while (m_http.buffer().size() < n)
            if (!m_http.waitMore(10000))
                return false;
        return true;
    }

    bool readFrame()
    {
        QByteArray& b = m_http.buffer();
        if (!need(2))
            return false;
        const int opcode = b[0] & 0x0f;
        qint64 length = b[1] & 0x7f;
        int header = 2;
        if (length == 126) {
            if (!need(4))
                return false;
            length = qFromBigEndian<quint16>(b.constData() + 2);
            header = 4;
        } else if (length == 127) {
            if (!need(10))
                return false;
            length = qint64(qFromBigEndian<quint64>(b.constData() + 2));
            header = 10;
        }
        if (!need(header + int(length)))
            return false;
        if (opcode == 0x2 || opcode == 0x0)
            m_in += b.mid(header, int(length));
        b.remove(0, header + int(length));
        return opcode != 0x8; // close
    }

    RawHttp m_http;
    QByteArray m_in;
    QString m_error;
    int m_width = 0;
    int m_height = 0;
};

} // namespace lizard::test
