#pragma once
// Helpers of the API flood suite (tst_sec_api): raw TCP connections that control every byte
// and every pause (POSIX sockets, non-blocking, poll with timeouts), and the server's memory
// read from /proc while an attack runs.

#include "support/localserver.h"

#include <QByteArray>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QSet>
#include <QStringList>
#include <QThread>
#include <algorithm>
#include <arpa/inet.h>
#include <atomic>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace lizard::test {

// lizard-local's own pid: the fixture's process, or (as another user) runuser's descendant.
inline qint64 serverProcessPid(const LocalServer& server)
{
    qint64 pid = server.pid();
    for (int depth = 0; depth < 4 && pid > 0; ++depth) {
        QFile comm(QStringLiteral("/proc/%1/comm").arg(pid));
        if (comm.open(QIODevice::ReadOnly) && comm.readAll().trimmed() == "lizard-local")
            return pid;
        QFile children(QStringLiteral("/proc/%1/task/%1/children").arg(pid));
        if (!children.open(QIODevice::ReadOnly))
            return 0;
        pid = children.readAll().trimmed().split(' ').value(0).toLongLong();
    }
    return 0;
}

// VmRSS of a process in KiB (0 if it is gone).
inline qint64 rssKb(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/status").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong();
    return 0;
}

// The TCP sockets a process listens on, as "a.b.c.d:port" (IPv6 ones as "[hex]:port").
inline QStringList listeningAddresses(qint64 pid)
{
    QSet<QByteArray> inodes;
    const QDir fds(QStringLiteral("/proc/%1/fd").arg(pid));
    for (const QFileInfo& fd : fds.entryInfoList(QDir::System | QDir::NoDotAndDotDot)) {
        const QByteArray target = fd.symLinkTarget().section('/', -1).toLatin1();
        if (target.startsWith("socket:["))
            inodes.insert(target.mid(8).chopped(1));
    }
    QStringList out;
    for (const char* table : {"tcp", "tcp6"}) {
        QFile f(QStringLiteral("/proc/%1/net/%2").arg(pid).arg(table));
        if (!f.open(QIODevice::ReadOnly))
            continue;
        for (const QByteArray& line : f.readAll().split('\n').mid(1)) {
            const QList<QByteArray> c = line.simplified().split(' ');
            if (c.size() < 10 || c[3] != "0A" || !inodes.contains(c[9]))
                continue; // 0A: LISTEN
            const QByteArray hexAddress = c[1].left(c[1].indexOf(':'));
            const int port = c[1].mid(c[1].indexOf(':') + 1).toInt(nullptr, 16);
            if (hexAddress.size() == 8) {
                const quint32 a = hexAddress.toUInt(nullptr, 16); // little-endian in the table
                out << QStringLiteral("%1.%2.%3.%4:%5")
                           .arg(a & 0xff)
                           .arg((a >> 8) & 0xff)
                           .arg((a >> 16) & 0xff)
                           .arg(a >> 24)
                           .arg(port);
            } else {
                out << QStringLiteral("[%1]:%2").arg(QString::fromLatin1(hexAddress)).arg(port);
            }
        }
    }
    return out;
}

// Samples a process's RSS every 20 ms on a thread until destroyed; peakKb() is the highest.
class RssWatch
{
public:
    explicit RssWatch(qint64 pid) : m_pid(pid), m_baseline(rssKb(pid))
    {
        m_peak = m_baseline;
        m_thread = std::thread([this] {
            while (!m_stop) {
                const qint64 now = rssKb(m_pid);
                m_peak = std::max<qint64>(m_peak, now);
                QThread::msleep(20);
            }
        });
    }
    ~RssWatch()
    {
        m_stop = true;
        m_thread.join();
    }
    qint64 baselineKb() const { return m_baseline; }
    qint64 peakKb() const { return m_peak; }
    qint64 growthMb() const { return (m_peak - m_baseline) / 1024; }

private:
    qint64 m_pid;
    qint64 m_baseline;
    std::atomic<qint64> m_peak{0};
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

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
