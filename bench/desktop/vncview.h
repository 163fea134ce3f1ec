#pragma once
// A native viewer of a desktop stream, for the desktop bench's comparison with the web viewer
// (not part of the app): the WebSocket /websockify of the URL's origin with the URL's token,
// RFB 3.8 with VNC authentication, 32-bit true colour, Raw and CopyRect rectangles and the
// DesktopSize pseudo-encoding, incremental update requests kept going, and the framebuffer
// painted scaled to the widget with its aspect ratio. Everything runs on the event loop.

#include "support/rfbwire.h"

#include <QImage>
#include <QTcpSocket>
#include <QWidget>
#include <memory>

namespace lizard::bench {

class VncView : public QWidget
{
    Q_OBJECT
public:
    explicit VncView(QWidget* parent = nullptr);

    // Connects to a desktop URL (url or viewOnlyUrl of the desktop's info).
    void open(const QString& desktopUrl);
    bool hasFrame() const { return m_hasFrame; }
    QSize framebufferSize() const { return m_framebuffer.size(); }
    QString error() const { return m_error; }
    // Where the framebuffer is drawn in the widget (the widget's rectangle, aspect kept).
    QRect screenRect() const;

signals:
    void failed(const QString& why);

protected:
    void paintEvent(QPaintEvent*) override;

private:
    enum class Stage { Closed, Upgrade, Handshake, Messages };

    void onReadyRead();
    void onDisconnected();
    void fail(const QString& why);
    void send(const QByteArray& rfbBytes);
    void requestUpdate(bool incremental);
    // Consumes whole server messages (and whole rectangles of an update) from m_in.
    bool parseMessages();
    bool parseRectangle();

    rfb::DesktopUrl m_url;
    QTcpSocket m_socket;
    rfb::WebSocketReader m_frames;
    std::unique_ptr<rfb::Handshake> m_handshake;
    Stage m_stage = Stage::Closed;
    QByteArray m_http;    // the upgrade's answer until its end
    QByteArray m_in;      // RFB bytes not yet consumed
    int m_rectsLeft = 0;  // of the FramebufferUpdate being read
    QImage m_framebuffer; // Format_RGB32
    bool m_hasFrame = false;
    QString m_error;
};

} // namespace lizard::bench
