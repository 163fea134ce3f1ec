#pragma once
// Helpers of the API flood suites (tst_sec_api, tst_sec_api_conn): the server they attack,
// started with short deadlines, and its memory and sockets read from /proc while an attack
// runs. Raw connections: rawconn.h.

#include "rawconn.h"
#include "server/proxy_support.h"
#include "support/procstatus.h"

#include <QDir>
#include <QFile>
#include <QSet>
#include <QStringList>
#include <QThread>
#include <atomic>
#include <thread>

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
    explicit RssWatch(qint64 pid) : m_pid(pid), m_baseline(rssKiB(pid))
    {
        m_peak = m_baseline;
        m_thread = std::thread([this] {
            while (!m_stop) {
                const qint64 now = rssKiB(m_pid);
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

inline constexpr qint64 kMiB = 1024 * 1024;

// idle and header differ so that a test can tell which deadline cut a connection.
inline constexpr char kTestLimits[] =
    "idleMs=3000,headerMs=2000,bodyGraceMs=2000,bodyMinRate=1048576,bodyMs=15000,"
    "maxConnections=64,proxyMaxConnections=32";

// A request header; contentLength < 0: no body headers.
inline QByteArray requestHead(const QByteArray& method, const QByteArray& target,
                              const QByteArray& key, qint64 contentLength,
                              const QList<QByteArray>& extra = {})
{
    QByteArray r = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    if (!key.isEmpty())
        r += "X-API-Key: " + key + "\r\n";
    if (contentLength >= 0)
        r += "Content-Type: application/json\r\nContent-Length: " +
             QByteArray::number(contentLength) + "\r\n";
    for (const auto& h : extra)
        r += h + "\r\n";
    return r + "\r\n";
}

// The lizard-local both suites attack: short deadlines (LIZARD_HTTP_LIMITS, see
// server/http/limits.h for the production values), one sandbox with the echo server of
// proxy_support.h on port 8080.
class SecApiFixture
{
public:
    LocalServer server;
    QString id;
    qint64 pid = 0;

    bool start(QString* why)
    {
        qputenv("LIZARD_HTTP_LIMITS", kTestLimits);
        if (!server.start()) {
            *why = server.errorString();
            return false;
        }
        // Without the short limits the deadline cases would not mean what they say.
        if (const QByteArray log = server.log(); !log.contains("adjusted by LIZARD_HTTP_LIMITS")) {
            *why = "the server did not take LIZARD_HTTP_LIMITS:\n" + QString::fromUtf8(log);
            return false;
        }
        pid = serverProcessPid(server);
        if (pid <= 0 || rssKiB(pid) <= 0) {
            *why = "cannot find lizard-local's pid";
            return false;
        }
        id = createSandbox(server, {}, why);
        return !id.isEmpty() && startSandboxServer(server, id, 8080, why);
    }
    void stop()
    {
        if (!id.isEmpty())
            server.request("DELETE", "/api/sandboxes/" + id);
        qunsetenv("LIZARD_HTTP_LIMITS");
    }

    quint16 port() const { return quint16(server.port()); }
    QByteArray key() const { return server.apiKey().toUtf8(); }
    QByteArray target(const char* what) const
    {
        return ("/api/sandboxes/" + id + "/" + what).toUtf8();
    }
    bool apiAnswers() const { return server.request("GET", "/api/sandboxes/" + id).status == 200; }
    LocalServer::Response exec(const QByteArray& body) const
    {
        return server.request("POST", "/api/sandboxes/" + id + "/exec", body);
    }
};

} // namespace lizard::test
