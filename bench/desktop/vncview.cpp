#include "vncview.h"

#include <QNetworkProxy>
#include <QPainter>
#include <QtEndian>
#include <cstring>

namespace lizard::bench {

VncView::VncView(QWidget* parent) : QWidget(parent)
{
    setAttribute(Qt::WA_OpaquePaintEvent);
    m_socket.setProxy(QNetworkProxy::NoProxy);
    m_socket.setSocketOption(QAbstractSocket::LowDelayOption, 1);
    connect(&m_socket, &QTcpSocket::readyRead, this, &VncView::onReadyRead);
    connect(&m_socket, &QTcpSocket::disconnected, this, &VncView::onDisconnected);
    connect(&m_socket, &QTcpSocket::errorOccurred, this,
            [this] { fail(QStringLiteral("stream: ") + m_socket.errorString()); });
    connect(&m_socket, &QTcpSocket::connected, this, [this] {
        m_stage = Stage::Upgrade;
        m_socket.write(rfb::upgradeRequest(m_url));
    });
}

void VncView::open(const QString& desktopUrl)
{
    m_url = rfb::parseDesktopUrl(desktopUrl);
    m_handshake = std::make_unique<rfb::Handshake>(m_url.password.toLatin1());
    m_frames = {};
    m_http.clear();
    m_in.clear();
    m_rectsLeft = 0;
    m_hasFrame = false;
    m_error.clear();
    m_socket.connectToHost(m_url.address(), m_url.port());
}

QRect VncView::screenRect() const
{
    if (m_framebuffer.isNull())
        return rect();
    const QSize size = m_framebuffer.size().scaled(this->size(), Qt::KeepAspectRatio);
    return QRect(QPoint((width() - size.width()) / 2, (height() - size.height()) / 2), size);
}

void VncView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    // Grey, not black, where no screen is: the desktop's own background is black.
    const QColor background(0x49, 0x49, 0x49);
    if (!m_hasFrame) {
        p.fillRect(rect(), background);
        return;
    }
    const QRect target = screenRect();
    p.fillRect(QRect(0, 0, width(), target.top()), background);
    p.fillRect(QRect(0, target.bottom() + 1, width(), height()), background);
    p.fillRect(QRect(0, target.top(), target.left(), target.height()), background);
    p.fillRect(QRect(target.right() + 1, target.top(), width(), target.height()), background);
    p.setRenderHint(QPainter::SmoothPixmapTransform);
    p.drawImage(target, m_framebuffer);
}

void VncView::fail(const QString& why)
{
    if (m_stage == Stage::Closed)
        return;
    m_stage = Stage::Closed;
    m_error = why;
    m_socket.abort();
    emit failed(why);
}

void VncView::onDisconnected()
{
    fail(QStringLiteral("the stream closed"));
}

void VncView::send(const QByteArray& rfbBytes)
{
    m_socket.write(rfb::webSocketFrame(rfbBytes));
}

void VncView::requestUpdate(bool incremental)
{
    send(rfb::updateRequest(incremental, 0, 0, m_framebuffer.width(), m_framebuffer.height()));
}

void VncView::onReadyRead()
{
    const QByteArray bytes = m_socket.readAll();
    if (m_stage == Stage::Upgrade) {
        m_http += bytes;
        const int end = m_http.indexOf("\r\n\r\n");
        if (end < 0)
            return;
        if (!m_http.startsWith("HTTP/1.1 101"))
            return fail(QStringLiteral("WebSocket upgrade refused: ") +
                        QString::fromLatin1(m_http.left(m_http.indexOf('\r'))));
        m_frames.append(m_http.mid(end + 4));
        m_http.clear();
        m_stage = Stage::Handshake;
    } else {
        m_frames.append(bytes);
    }
    m_in += m_frames.takePayload();
    if (m_stage == Stage::Handshake) {
        const QByteArray reply = m_handshake->feed(m_in);
        if (!reply.isEmpty())
            send(reply);
        if (m_handshake->state() == rfb::Handshake::State::Failed)
            return fail(m_handshake->error());
        if (m_handshake->state() != rfb::Handshake::State::Ready)
            return;
        m_framebuffer = QImage(m_handshake->width(), m_handshake->height(), QImage::Format_RGB32);
        send(rfb::setPixelFormatRgb32());
        send(rfb::setEncodings(
            {rfb::kEncodingCopyRect, rfb::kEncodingRaw, rfb::kEncodingDesktopSize}));
        requestUpdate(false);
        m_stage = Stage::Messages;
    }
    if (m_stage == Stage::Messages && !parseMessages())
        return;
    if (m_frames.closed())
        fail(QStringLiteral("the server closed the stream"));
}

bool VncView::parseMessages()
{
    for (;;) {
        if (m_rectsLeft > 0) {
            if (!parseRectangle())
                return m_stage == Stage::Messages;
            if (--m_rectsLeft == 0) {
                m_hasFrame = true;
                update();
                requestUpdate(true);
            }
            continue;
        }
        if (m_in.isEmpty())
            return true;
        const quint8 type = quint8(m_in[0]);
        if (type == 0) { // FramebufferUpdate
            if (m_in.size() < 4)
                return true;
            m_rectsLeft = qFromBigEndian<quint16>(m_in.constData() + 2);
            m_in.remove(0, 4);
            if (m_rectsLeft == 0)
                requestUpdate(true);
        } else if (type == 1) { // SetColourMapEntries: not used in true colour
            if (m_in.size() < 6)
                return true;
            const int length = 6 + 6 * qFromBigEndian<quint16>(m_in.constData() + 4);
            if (m_in.size() < length)
                return true;
            m_in.remove(0, length);
        } else if (type == 2) { // Bell
            m_in.remove(0, 1);
        } else if (type == 3) { // ServerCutText
            if (m_in.size() < 8)
                return true;
            const qint64 length = 8 + qint64(qFromBigEndian<quint32>(m_in.constData() + 4));
            if (m_in.size() < length)
                return true;
            m_in.remove(0, int(length));
        } else {
            fail(QStringLiteral("unknown server message %1").arg(type));
            return false;
        }
    }
}

// One rectangle of an update, when all of it has come.
bool VncView::parseRectangle()
{
    if (m_in.size() < 12)
        return false;
    const char* h = m_in.constData();
    const int x = qFromBigEndian<quint16>(h), y = qFromBigEndian<quint16>(h + 2);
    const int w = qFromBigEndian<quint16>(h + 4), hgt = qFromBigEndian<quint16>(h + 6);
    const qint32 encoding = qFromBigEndian<qint32>(h + 8);
    const QRect area(x, y, w, hgt);
    if (encoding == rfb::kEncodingDesktopSize) {
        m_framebuffer = QImage(w, hgt, QImage::Format_RGB32);
        m_framebuffer.fill(Qt::black);
        m_in.remove(0, 12);
        return true;
    }
    if (!m_framebuffer.rect().contains(area)) {
        fail(QStringLiteral("a rectangle outside the screen"));
        return false;
    }
    if (encoding == rfb::kEncodingRaw) {
        const qint64 length = 12 + qint64(w) * hgt * 4;
        if (m_in.size() < length)
            return false;
        for (int row = 0; row < hgt; ++row) {
            auto* dst = reinterpret_cast<quint32*>(m_framebuffer.scanLine(y + row)) + x;
            std::memcpy(dst, m_in.constData() + 12 + qint64(row) * w * 4, size_t(w) * 4);
            for (int i = 0; i < w; ++i)
                dst[i] |= 0xff000000u; // the server's padding byte is not an alpha
        }
        m_in.remove(0, int(length));
        return true;
    }
    if (encoding == rfb::kEncodingCopyRect) {
        if (m_in.size() < 16)
            return false;
        const QPoint source(qFromBigEndian<quint16>(h + 12), qFromBigEndian<quint16>(h + 14));
        const QImage copy = m_framebuffer.copy(QRect(source, area.size()));
        for (int row = 0; row < hgt; ++row)
            std::memcpy(m_framebuffer.scanLine(y + row) + x * 4, copy.constScanLine(row),
                        size_t(w) * 4);
        m_in.remove(0, 16);
        return true;
    }
    fail(QStringLiteral("unasked-for encoding %1").arg(encoding));
    return false;
}

} // namespace lizard::bench
