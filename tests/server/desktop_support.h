#pragma once
// A minimal VNC client for the desktop suite: RFB 3.8 with VNC authentication, over the
// WebSocket that websockify serves in the sandbox, reached through the port proxy with the
// desktop URL's token. Enough to authenticate and send pointer and key events. Blocking; the
// protocol itself is support/rfbwire.h, shared with the desktop bench's native viewer.

#include "proxy_support.h"
#include "support/rfbwire.h"

namespace lizard::test {

using rfb::DesktopUrl;
using rfb::parseDesktopUrl;

class RfbClient
{
public:
    // Connects and authenticates; false with the reason in error(). width()/height() are the
    // framebuffer's, from the server's ServerInit.
    bool open(const DesktopUrl& url, const QString& password)
    {
        if (!m_http.connectTo(url.address(), url.port()))
            return failed("cannot connect to " + url.hostname);
        const RawResponse r = m_http.exchange(rfb::upgradeRequest(url), 10000);
        if (r.status != 101)
            return failed(QString("WebSocket upgrade: HTTP %1 %2").arg(r.status).arg(r.error));
        rfb::Handshake handshake(password.toLatin1());
        QByteArray in;
        while (handshake.state() == rfb::Handshake::State::Working) {
            const QByteArray reply = handshake.feed(in);
            if (!reply.isEmpty())
                send(reply);
            if (handshake.state() != rfb::Handshake::State::Working)
                break;
            if (!readMore(&in))
                return failed("no " + handshake.waitingFor());
        }
        if (handshake.state() == rfb::Handshake::State::Failed)
            return failed(handshake.error());
        m_width = handshake.width();
        m_height = handshake.height();
        return true;
    }

    void pointer(int x, int y, int buttonMask) { send(rfb::pointerEvent(x, y, buttonMask)); }
    void key(quint32 keysym, bool down) { send(rfb::keyEvent(keysym, down)); }
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

    void send(const QByteArray& payload) { m_http.socket().write(rfb::webSocketFrame(payload)); }

    // More of the RFB stream into *in; false when the connection ended or stalled for 10 s.
    bool readMore(QByteArray* in)
    {
        for (;;) {
            m_frames.append(m_http.buffer());
            m_http.buffer().clear();
            const QByteArray payload = m_frames.takePayload();
            *in += payload;
            if (!payload.isEmpty())
                return true;
            if (m_frames.closed() || !m_http.waitMore(10000))
                return false;
        }
    }

    RawHttp m_http;
    rfb::WebSocketReader m_frames;
    QString m_error;
    int m_width = 0;
    int m_height = 0;
};

} // namespace lizard::test
