#pragma once
// A raw TCP client for the flood suites: POSIX socket, non-blocking, every wait bounded by
// poll, so a test controls every byte and every pause (and a slow reader's receive buffer).

#include <QByteArray>
#include <QElapsedTimer>
#include <QList>
#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace lizard::test {

// One client connection; all waits are bounded. closed() once the peer ended it.
class RawConn
{
public:
    RawConn() = default;
    RawConn(const RawConn&) = delete;
    RawConn& operator=(const RawConn&) = delete;
    ~RawConn()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }

    // receiveBuffer > 0 shrinks SO_RCVBUF first (a slow reader that holds back little).
    bool connectTo(quint16 port, const char* address = "127.0.0.1", int receiveBuffer = 0)
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (m_fd < 0)
            return false;
        if (receiveBuffer > 0)
            ::setsockopt(m_fd, SOL_SOCKET, SO_RCVBUF, &receiveBuffer, sizeof receiveBuffer);
        sockaddr_in sa{};
        sa.sin_family = AF_INET;
        sa.sin_port = htons(port);
        ::inet_pton(AF_INET, address, &sa.sin_addr);
        if (::connect(m_fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0)
            return false;
        ::fcntl(m_fd, F_SETFL, ::fcntl(m_fd, F_GETFL) | O_NONBLOCK);
        return true;
    }

    // Sends all of `data`; false if the peer closed or reset, or on timeout.
    bool send(const QByteArray& data, int timeoutMs = 10000)
    {
        qsizetype done = 0;
        QElapsedTimer t;
        t.start();
        while (done < data.size()) {
            const ssize_t n =
                ::send(m_fd, data.constData() + done, size_t(data.size() - done), MSG_NOSIGNAL);
            if (n > 0) {
                done += n;
                continue;
            }
            if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
                return false;
            const int left = timeoutMs - int(t.elapsed());
            if (left <= 0)
                return false;
            pollfd p{m_fd, POLLOUT, 0};
            ::poll(&p, 1, left);
            if (p.revents & (POLLERR | POLLHUP))
                return false;
        }
        return true;
    }

    // Waits up to timeoutMs for bytes, appends them to in() (or only counts them with
    // keep = false). False once the connection ended (closed() tells) or nothing came.
    bool readSome(int timeoutMs, bool keep = true, qint64* count = nullptr)
    {
        pollfd p{m_fd, POLLIN, 0};
        if (::poll(&p, 1, std::max(timeoutMs, 0)) <= 0)
            return false;
        char buf[65536];
        const ssize_t n = ::recv(m_fd, buf, sizeof buf, 0);
        if (n <= 0) {
            if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
                m_closed = true;
            return false;
        }
        if (keep)
            m_in.append(buf, n);
        else
            m_tail = (m_tail +
                      QByteArray(buf + std::max<ssize_t>(0, n - 256), std::min<ssize_t>(n, 256)))
                         .right(512);
        if (count)
            *count += n;
        return true;
    }

    // One answer with a Content-Length body: its status (0 if none came), body in *body.
    int readResponse(int timeoutMs, QByteArray* body = nullptr)
    {
        QElapsedTimer t;
        t.start();
        qsizetype end = -1;
        while ((end = m_in.indexOf("\r\n\r\n")) < 0)
            if (!readSome(timeoutMs - int(t.elapsed())) && (m_closed || t.elapsed() >= timeoutMs))
                return 0;
        const QByteArray head = m_in.left(end);
        qint64 length = 0;
        for (const QByteArray& line : head.split('\n'))
            if (line.toLower().startsWith("content-length:"))
                length = line.mid(15).trimmed().toLongLong();
        while (m_in.size() < end + 4 + length)
            if (!readSome(timeoutMs - int(t.elapsed())) && (m_closed || t.elapsed() >= timeoutMs))
                return 0;
        if (body)
            *body = m_in.mid(end + 4, length);
        const int status = head.split(' ').value(1).toInt();
        m_in.remove(0, end + 4 + length);
        return status;
    }

    // Milliseconds until the peer ended the connection (reading and dropping what comes),
    // or -1 if it was still open after timeoutMs.
    qint64 waitClosed(int timeoutMs)
    {
        QElapsedTimer t;
        t.start();
        while (!m_closed && t.elapsed() < timeoutMs)
            readSome(timeoutMs - int(t.elapsed()));
        return m_closed ? t.elapsed() : -1;
    }

    bool closed() const { return m_closed; }
    QByteArray& in() { return m_in; }
    QByteArray tail() const { return m_tail; }
    int fd() const { return m_fd; }

private:
    int m_fd = -1;
    bool m_closed = false;
    QByteArray m_in;
    QByteArray m_tail; // last bytes seen by readSome(keep = false)
};

} // namespace lizard::test
