#pragma once
// Helpers of tst_sec_agentcalls: thread counts and states from /proc, freezing an agent with
// SIGSTOP, and raw requests straight to an agent socket (server/agent/PROTOCOL.md framing).

#include "support/localserver.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>
#include <csignal>
#include <cstring>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace lizard::test {

inline int threadsOf(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/status").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.startsWith("Threads:"))
            return line.mid(8).trimmed().toInt();
    return -1;
}

inline char procState(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return '?';
    const QByteArray s = f.readAll();
    const int close = s.lastIndexOf(')');
    return close > 0 && close + 2 < s.size() ? s.at(close + 2) : '?';
}

// Stops the agent (PID 1 of the sandbox) and continues it when it goes out of scope, so a
// failed check never leaves a frozen sandbox behind.
class Frozen
{
public:
    explicit Frozen(qint64 pid) : m_pid(pid)
    {
        ::kill(pid_t(pid), SIGSTOP);
        QElapsedTimer t;
        t.start();
        while (procState(pid) != 'T' && t.elapsed() < 3000)
            QThread::msleep(5);
    }
    ~Frozen() { thaw(); }
    bool stopped() const { return procState(m_pid) == 'T'; }
    void thaw()
    {
        if (m_pid > 0)
            ::kill(pid_t(m_pid), SIGCONT);
        m_pid = 0;
    }

private:
    qint64 m_pid;
};

// An API answer and how long it took.
struct Timed
{
    LocalServer::Response r;
    qint64 ms = 0;
};

// One agent frame: type, u32 big-endian length, payload.
inline QByteArray frame(char type, const QByteArray& payload)
{
    QByteArray f(1, type);
    const quint32 n = quint32(payload.size());
    f.append(char(n >> 24)).append(char(n >> 16)).append(char(n >> 8)).append(char(n));
    return f + payload;
}

inline int connectUnix(const QString& path)
{
    int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    const QByteArray p = path.toLocal8Bit();
    std::memcpy(addr.sun_path, p.constData(), size_t(p.size()) + 1);
    if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        if (fd >= 0)
            ::close(fd);
        return -1;
    }
    timeval tv{10, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    return fd;
}

// Sends one request straight to an agent and reads the first reply frame's JSON.
inline QJsonObject askRaw(int fd, const QByteArray& json)
{
    const QByteArray f = frame('J', json);
    if (::send(fd, f.constData(), size_t(f.size()), MSG_NOSIGNAL) != f.size())
        return {};
    unsigned char h[5];
    if (::recv(fd, h, 5, MSG_WAITALL) != 5 || h[0] != 'J')
        return {};
    const quint32 n = (quint32(h[1]) << 24) | (quint32(h[2]) << 16) | (quint32(h[3]) << 8) | h[4];
    QByteArray payload(int(n), '\0');
    if (n > 0 && ::recv(fd, payload.data(), n, MSG_WAITALL) != ssize_t(n))
        return {};
    return QJsonDocument::fromJson(payload).object();
}

} // namespace lizard::test
