// KeepAliveConnection against a scripted loopback peer: Content-Length and chunked answers,
// answers split across writes, and servers that close the connection.

#include "keepaliveconnection.h"

#include <QTest>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace lizard::bench;

namespace {

struct Reply
{
    QByteArray bytes;
    bool closeAfter = false; // close the connection once written
    bool trickle = false;    // write it a few bytes at a time
};

// Serves `replies` in order, one per request, on a loopback port; closes a connection when a
// reply says so, and counts accepted connections.
class ScriptedPeer
{
public:
    explicit ScriptedPeer(QList<Reply> replies) : m_replies(std::move(replies))
    {
        m_listen = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof addr;
        ::bind(m_listen, reinterpret_cast<sockaddr*>(&addr), len);
        ::listen(m_listen, 4);
        ::getsockname(m_listen, reinterpret_cast<sockaddr*>(&addr), &len);
        m_port = ntohs(addr.sin_port);
        m_thread = std::thread([this] { serve(); });
    }
    ~ScriptedPeer()
    {
        ::shutdown(m_listen, SHUT_RDWR);
        m_thread.join();
        ::close(m_listen);
    }
    int port() const { return m_port; }
    int accepted() const { return m_accepted; }

private:
    void serve()
    {
        int next = 0;
        while (next < m_replies.size()) {
            const int fd = ::accept4(m_listen, nullptr, nullptr, SOCK_CLOEXEC);
            if (fd < 0)
                return;
            ++m_accepted;
            bool open = true;
            while (open && next < m_replies.size()) {
                QByteArray request;
                char buf[4096];
                while (!request.contains("\r\n\r\n")) {
                    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
                    if (n <= 0)
                        break;
                    request.append(buf, n);
                }
                if (!request.contains("\r\n\r\n"))
                    break;
                const Reply& reply = m_replies[next++];
                const int step = reply.trickle ? 3 : int(reply.bytes.size());
                for (int at = 0; at < reply.bytes.size(); at += step) {
                    ::send(fd, reply.bytes.constData() + at,
                           size_t(qMin(step, int(reply.bytes.size()) - at)), MSG_NOSIGNAL);
                    if (reply.trickle)
                        std::this_thread::sleep_for(std::chrono::microseconds(200));
                }
                open = !reply.closeAfter;
            }
            ::close(fd);
        }
    }

    QList<Reply> m_replies;
    int m_listen = -1;
    int m_port = 0;
    std::atomic<int> m_accepted{0};
    std::thread m_thread;
};

const QByteArray
    kOk("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n"
        "{\"status\":1}\n");
const QByteArray kChunked("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                          "5\r\nhello\r\n1a\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\n\r\n");
const QByteArray
    kClose("HTTP/1.1 404 Not Found\r\nconnection: Close\r\ncontent-length: 2\r\n\r\n{}");
const QByteArray kEmpty("HTTP/1.1 204 No Content\r\n\r\n");

} // namespace

Q_DECLARE_METATYPE(Reply)

class TestKeepAliveConnection : public QObject
{
    Q_OBJECT

private slots:
    void roundTrips_data();
    void roundTrips();
    void refusedConnection();
};

void TestKeepAliveConnection::roundTrips_data()
{
    QTest::addColumn<QList<Reply>>("replies");
    QTest::addColumn<QList<int>>("statuses");
    QTest::addColumn<int>("connections");

    QTest::newRow("content-length, one connection")
        << QList<Reply>{{kOk}, {kOk}, {kOk}} << QList<int>{200, 200, 200} << 1;
    QTest::newRow("chunked, one connection")
        << QList<Reply>{{kChunked}, {kChunked}} << QList<int>{200, 200} << 1;
    QTest::newRow("no body") << QList<Reply>{{kEmpty}, {kOk}} << QList<int>{204, 200} << 1;
    QTest::newRow("answers trickle in")
        << QList<Reply>{{kChunked, false, true}, {kOk, false, true}} << QList<int>{200, 200} << 1;
    QTest::newRow("Connection: close reconnects")
        << QList<Reply>{{kClose, true}, {kClose, true}, {kOk}} << QList<int>{404, 404, 200} << 3;
    QTest::newRow("idle keep-alive dropped by the server")
        << QList<Reply>{{kOk, true}, {kOk}} << QList<int>{200, 200} << 2;
}

void TestKeepAliveConnection::roundTrips()
{
    QFETCH(QList<Reply>, replies);
    QFETCH(QList<int>, statuses);
    QFETCH(int, connections);

    ScriptedPeer peer(replies);
    KeepAliveConnection conn(HostPort{"127.0.0.1", std::to_string(peer.port())});
    const std::string request = "GET /api/sandboxes/x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    for (int expected : statuses)
        QCOMPARE(conn.roundTrip(request), expected);
    QCOMPARE(peer.accepted(), connections);
    QCOMPARE(conn.reconnects(), connections - 1);
}

void TestKeepAliveConnection::refusedConnection()
{
    int port = 0;
    {
        ScriptedPeer closed({}); // bound then closed: nothing listens there afterwards
        port = closed.port();
    }
    KeepAliveConnection conn(HostPort{"127.0.0.1", std::to_string(port)});
    QCOMPARE(conn.roundTrip("GET / HTTP/1.1\r\n\r\n"), 0);
    QVERIFY2(QString::fromStdString(conn.error()).contains("connect"), conn.error().c_str());
}

QTEST_APPLESS_MAIN(TestKeepAliveConnection)
#include "tst_keepaliveconnection.moc"
