#pragma once
// The test network of the allowedHosts suite: network namespace `lzt-ah-<pid>` behind a veth
// pair on 198.18.<n>.0/24 (a benchmark range, never routed on the internet). The host side is
// .1; the namespace holds .2 to .5 with TCP servers on ports 80, 443 and 8080 (each greets
// with "ok <address> <port>") and a DNS server on .2:53 that answers the test's names. The
// servers run on a thread of this process that joined the namespace (setns affects only the
// calling thread; sockets keep the namespace they were made in).

#include "net_support.h"

#include <QMap>
#include <QMutex>
#include <algorithm>
#include <atomic>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <thread>
#include <utility>

namespace lizard::test {

class TestNet
{
public:
    ~TestNet() { stop(); }

    // `names`: host name -> last octet of its address (198.18.<n>.<octet>).
    bool start(const QMap<QString, int>& names, QString* why)
    {
        const QString pid = QString::number(::getpid());
        m_ns = "lzt-ah-" + pid;
        const QString outer = "lzah" + pid + "a", inner = "lzah" + pid + "b";
        const QString used = run({"ip", "-o", "addr"}) + run({"ip", "route"});
        int net = 1 + int(::getpid() % 200);
        while (used.contains(QStringLiteral("198.18.%1.").arg(net)))
            net = net % 250 + 1;
        m_prefix = QStringLiteral("198.18.%1.").arg(net);
        QList<QStringList> cmds{
            ipNetnsAdd(m_ns),
            {"ip", "link", "add", outer, "type", "veth", "peer", "name", inner, "netns", m_ns},
            {"ip", "addr", "add", at(1) + "/24", "dev", outer},
            {"ip", "link", "set", outer, "up"},
            {"ip", "-n", m_ns, "link", "set", inner, "up"},
            {"ip", "-n", m_ns, "link", "set", "lo", "up"}};
        for (int octet = 2; octet <= 5; ++octet)
            cmds.append({"ip", "-n", m_ns, "addr", "add", at(octet) + "/24", "dev", inner});
        for (const QStringList& cmd : cmds) {
            QString err;
            if (run(cmd, &err).isNull()) {
                *why = cmd.join(' ') + ": " + err;
                return false;
            }
        }
        for (auto it = names.begin(); it != names.end(); ++it)
            m_names.insert(it.key().toLower().toUtf8(), at(it.value()));
        return startServers(why);
    }

    void stop()
    {
        if (m_thread.joinable()) {
            m_stop = true;
            m_thread.join();
        }
        if (!m_ns.isEmpty())
            run({"ip", "netns", "delete", m_ns}); // takes the veth pair along
        m_ns.clear();
    }

    QString at(int octet) const { return m_prefix + QString::number(octet); }
    QString dnsUpstream() const { return at(2) + ":53"; }
    // Connections the servers accepted, as "address:port", since the last call.
    QStringList takeAccepted()
    {
        QMutexLocker lock(&m_mutex);
        return std::exchange(m_accepted, {});
    }
    int dnsQueries() const { return m_queries; }

private:
    bool startServers(QString* why)
    {
        std::atomic<int> state{0}; // 1 ready, -1 failed
        QString error;
        m_thread = std::thread([this, &state, &error] {
            const int nsFd = ::open(("/run/netns/" + m_ns).toUtf8().constData(), O_RDONLY);
            if (nsFd < 0 || ::setns(nsFd, CLONE_NEWNET) != 0) {
                error = QString("setns: ") + std::strerror(errno);
                state = -1;
                return;
            }
            ::close(nsFd);
            std::vector<int> tcp;
            for (int port : {80, 443, 8080})
                tcp.push_back(bound(SOCK_STREAM, port));
            const int udp = bound(SOCK_DGRAM, 53);
            if (udp < 0 || std::count(tcp.begin(), tcp.end(), -1) > 0) {
                error = QString("test servers: ") + std::strerror(errno);
                state = -1;
                return;
            }
            state = 1;
            serve(tcp, udp);
        });
        while (state == 0)
            std::this_thread::yield();
        if (state < 0) {
            m_thread.join();
            *why = error;
        }
        return state > 0;
    }

    static int bound(int type, int port)
    {
        const int fd = ::socket(AF_INET, type | SOCK_CLOEXEC, 0);
        int on = 1;
        ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(uint16_t(port));
        if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
            (type == SOCK_STREAM && ::listen(fd, 64) != 0)) {
            ::close(fd);
            return -1;
        }
        return fd;
    }

    void serve(const std::vector<int>& tcp, int udp)
    {
        std::vector<pollfd> fds;
        for (int fd : tcp)
            fds.push_back({fd, POLLIN, 0});
        fds.push_back({udp, POLLIN, 0});
        while (!m_stop) {
            if (::poll(fds.data(), fds.size(), 100) <= 0)
                continue;
            for (size_t i = 0; i < tcp.size(); ++i) {
                if (fds[i].revents & POLLIN)
                    greet(tcp[i]);
            }
            if (fds.back().revents & POLLIN)
                answer(udp);
        }
        for (const pollfd& p : fds)
            ::close(p.fd);
    }

    void greet(int listenFd)
    {
        const int c = ::accept4(listenFd, nullptr, nullptr, SOCK_CLOEXEC);
        if (c < 0)
            return;
        sockaddr_in local{};
        socklen_t len = sizeof local;
        ::getsockname(c, reinterpret_cast<sockaddr*>(&local), &len);
        char addr[INET_ADDRSTRLEN] = {};
        ::inet_ntop(AF_INET, &local.sin_addr, addr, sizeof addr);
        const QString where = QStringLiteral("%1:%2").arg(addr).arg(ntohs(local.sin_port));
        const QByteArray line = "ok " + where.toUtf8() + "\n";
        [[maybe_unused]] auto w = ::write(c, line.constData(), size_t(line.size()));
        ::close(c);
        QMutexLocker lock(&m_mutex);
        m_accepted << where;
    }

    // Type A for a known name: its address; another type: no records; unknown: NXDOMAIN.
    void answer(int udp)
    {
        unsigned char buf[1500];
        sockaddr_in from{};
        socklen_t len = sizeof from;
        const ssize_t n = ::recvfrom(udp, buf, 512, 0, reinterpret_cast<sockaddr*>(&from), &len);
        if (n < 17)
            return;
        ++m_queries;
        QByteArray name;
        size_t i = 12;
        while (i < size_t(n) && buf[i] != 0 && i + buf[i] < size_t(n)) {
            if (!name.isEmpty())
                name += '.';
            name += QByteArray(reinterpret_cast<const char*>(buf + i + 1), buf[i]).toLower();
            i += 1 + buf[i];
        }
        const size_t qend = i + 5;
        if (qend > size_t(n))
            return;
        const int qtype = buf[i + 1] << 8 | buf[i + 2];
        const auto it = m_names.find(name);
        buf[2] = 0x84 | (buf[2] & 0x01);      // QR, AA, RD as asked
        buf[3] = it == m_names.end() ? 3 : 0; // NXDOMAIN or NOERROR
        std::memset(buf + 6, 0, 6);
        size_t out = qend;
        if (it != m_names.end() && qtype == 1) {
            buf[7] = 1; // one answer: a pointer to the question's name, A, IN, TTL 60, 4 bytes
            const unsigned char rr[] = {0xC0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4};
            std::memcpy(buf + out, rr, sizeof rr);
            out += sizeof rr;
            ::inet_pton(AF_INET, it.value().toUtf8().constData(), buf + out);
            out += 4;
        }
        ::sendto(udp, buf, out, 0, reinterpret_cast<sockaddr*>(&from), len);
    }

    static QString run(const QStringList& cmd, QString* err = nullptr)
    {
        QProcess p;
        p.start(cmd.first(), cmd.mid(1));
        if (!p.waitForFinished(10000) || p.exitStatus() != QProcess::NormalExit ||
            p.exitCode() != 0) {
            if (err)
                *err = QString::fromUtf8(p.readAllStandardError()).trimmed();
            return {};
        }
        return QString::fromUtf8(p.readAllStandardOutput()) + ""; // "" is not null
    }

    QString m_ns, m_prefix;
    QMap<QByteArray, QString> m_names;
    std::thread m_thread;
    std::atomic<bool> m_stop{false};
    std::atomic<int> m_queries{0};
    QMutex m_mutex;
    QStringList m_accepted;
};

struct Reach
{
    QString resolve; // "OK" (with `ip`), or why the name did not resolve
    QString ip;
    QString error; // "OK" or an errno name; "" when resolution failed
    int ms = -1;   // time of resolution and connect together
    QString reply; // the server's greeting
};

// Resolves `host` (IPv4 only, as the sandbox has no IPv6) and connects to `port`.
inline Reach reachFrom(const LocalServer& server, const QString& id, const QString& host, int port)
{
    static const QString probe = QStringLiteral(
        "import errno, json, socket, sys, time\n"
        "host, port = sys.argv[1], int(sys.argv[2]); out = {'resolve': 'OK', 'error': ''}\n"
        "t = time.monotonic()\n"
        "try:\n"
        "    out['ip'] = socket.gethostbyname(host)\n"
        "except OSError as x: out['resolve'] = str(x)\n"
        "if 'ip' in out:\n"
        "    s = socket.socket(); s.settimeout(5)\n"
        "    try:\n"
        "        s.connect((out['ip'], port)); out['error'] = 'OK'\n"
        "        out['reply'] = s.recv(64).decode(errors='replace').strip()\n"
        "    except socket.timeout: out['error'] = 'ETIMEDOUT'\n"
        "    except OSError as x: out['error'] = errno.errorcode.get(x.errno, str(x.errno))\n"
        "out['ms'] = int((time.monotonic() - t) * 1000)\n"
        "print(json.dumps(out))\n");
    const ProbeResult p =
        runArgv(server, id, {"python3", "-c", probe, host, QString::number(port)});
    const QJsonObject o = QJsonDocument::fromJson(p.out.toUtf8()).object();
    if (o.isEmpty())
        return {"<probe failed: " + p.describe() + ">", {}, {}, -1, {}};
    return {o.value("resolve").toString(), o.value("ip").toString(), o.value("error").toString(),
            o.value("ms").toInt(-1), o.value("reply").toString()};
}

} // namespace lizard::test
