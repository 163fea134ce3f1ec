#pragma once
// Test-only HTTP/1.1 server on 127.0.0.1 (QTcpServer) with canned routes, to exercise the
// curl transport without lizard-local: delays, chunked streams, errors, and hang-ups.

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QMap>
#include <QObject>
#include <QTcpServer>

namespace lizard::test {

struct MiniResponse
{
    int status = 200;
    QList<QByteArray> headers; // "Name: value"
    QByteArray body;           // sent with Content-Length when chunks is empty
    QList<QByteArray> chunks;  // sent with chunked encoding, one per chunkIntervalMs
    int chunkIntervalMs = 0;
    int delayMs = 0;       // before the head
    bool neverEnd = false; // after the chunks, keep the response open
};

struct SeenRequest
{
    QByteArray method;
    QByteArray target;
    QMap<QByteArray, QByteArray> headers; // lower-case names
    QByteArray body;
};

class MiniHttpServer : public QObject
{
    Q_OBJECT
public:
    explicit MiniHttpServer(QObject* parent = nullptr);
    ~MiniHttpServer() override;
    bool listen();
    QByteArray url() const;                                           // "http://127.0.0.1:PORT"
    void route(const QByteArray& path, const MiniResponse& response); // path without query
    QList<SeenRequest> requests() const { return m_requests; }
    int hangUps() const { return m_hangUps; } // clients that left before their response ended

signals:
    void requestSeen();
    void clientHungUp();

private:
    void onConnection();
    void onReadable(QTcpSocket* socket);
    void respond(QTcpSocket* socket, const SeenRequest& request);
    void sendChunks(QTcpSocket* socket, MiniResponse response, int next);

    QTcpServer m_server;
    QHash<QByteArray, MiniResponse> m_routes;
    QList<SeenRequest> m_requests;
    QHash<QTcpSocket*, QByteArray> m_buffers;
    int m_hangUps = 0;
};

} // namespace lizard::test
