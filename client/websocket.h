#pragma once
// A WebSocket client (RFC 6455) over libcurl, which this Debian's libcurl cannot do itself (no
// ws:// support compiled in). libcurl makes the connection (CURLOPT_CONNECT_ONLY: proxies, TLS
// with tlsconfig.h's extra CA, the test resolve hook) on a pool thread, so the event loop never
// waits for a remote host; the upgrade request and the frames are ours, sent and read with
// curl_easy_send / curl_easy_recv on a QSocketNotifier. Frames: websocketframes.h.
//
// open() → opened() → messages… → exactly one of closed() or failed(). A non-101 answer fails
// with the API's error ({code, message} mapped like every call: 401, 404, 426, 429). Slots may
// delete the socket.

#include "client/httpmessage.h"
#include "client/types.h"
#include "client/websocketframes.h"

#include <QByteArray>
#include <QObject>
#include <QTimer>
#include <memory>

class QSocketNotifier;

namespace lizard::client {

class WebSocket : public QObject
{
    Q_OBJECT
public:
    enum class State { Idle, Connecting, Handshaking, Open, Closing, Closed };

    static constexpr qint64 kMaxMessageBytes = 4 * 1024 * 1024;

    explicit WebSocket(QObject* parent = nullptr);
    // Without a close handshake: the server sees the connection end.
    ~WebSocket() override;

    // request: GET with an http(s):// (or ws(s)://) url, its headers (API key, User-Agent),
    // caFile and connectTimeoutMs; `what` labels errors ("Attach terminal"). Once per object.
    void open(const HttpRequest& request, const QString& what);

    State state() const { return m_state; }
    // Queued while the socket cannot take more; false when not open (nothing is sent).
    bool sendBinary(const QByteArray& data);
    bool sendText(const QByteArray& utf8);
    // Starts the close handshake; closed() follows when the server answers (or after 5 s).
    // Before opened(): ends the attempt at once, with closed(code, {}) from the event loop.
    void close(int code = wsframes::close::Normal, const QString& reason = {});
    // Bytes queued and not yet taken by the socket (for backpressure).
    qint64 bufferedAmount() const { return m_out.size(); }
    // While paused nothing is read: the server's sends wait in the TCP window, and a server
    // that reads with backpressure (lizard-local's terminals) stops its producer.
    void setReadPaused(bool paused);
    bool isReadPaused() const { return m_readPaused; }

    // Test only: shuts the TCP connection down under the socket, as a network failure would;
    // failed() follows as for any lost connection.
    void dropConnectionForTest();

signals:
    void opened();
    void binaryMessage(const QByteArray& data);
    void textMessage(const QByteArray& utf8);
    // The close handshake ended (either side began it); code 1005: the server's frame had none.
    void closed(int code, const QString& reason);
    // Could not connect or upgrade, the connection broke (code CONNECTION_LOST), or the server
    // broke the protocol (Protocol).
    void failed(const lizard::client::ApiError& error);
    // The queue shrank (bufferedAmount() is smaller); a writer waiting on backpressure goes on.
    void bytesWritten();

private:
    struct Connection;

    void onConnected(int curlCode, const QString& curlError);
    void onReadable();
    void onWritable();
    bool readAvailable(bool* ended); // false: failed (and reported)
    void process(bool ended);
    bool processHandshake(bool ended);
    void processFrames();
    void handleControl(wsframes::Opcode opcode, const QByteArray& payload);
    bool queueFrame(wsframes::Opcode opcode, const QByteArray& payload);
    void flush();
    bool drain(QString* error); // false: the socket failed (not reported)
    void protocolFailure(int closeCode, const QString& why);
    void finishClosed(int code, const QString& reason);
    void fail(const ApiError& error);
    void teardown();

    State m_state = State::Idle;
    QString m_what;
    QByteArray m_key;
    std::shared_ptr<Connection> m_conn;
    QSocketNotifier* m_readNotifier = nullptr;
    QSocketNotifier* m_writeNotifier = nullptr;
    QByteArray m_in;
    QByteArray m_out;
    wsframes::ResponseHead m_head;
    bool m_gotHead = false;
    bool m_readPaused = false;
    wsframes::MessageAssembler m_assembler{kMaxMessageBytes};
    bool m_closeSent = false;
    int m_closeCode = wsframes::close::NoStatus;
    QString m_closeReason;
    QTimer m_handshakeTimer;
    QTimer m_closeTimer;
};

} // namespace lizard::client
