#pragma once
// Helpers of the network escape suite: a listener on every host address that counts what
// reached it, a "remote" host (a network namespace behind a veth pair, built by the test
// since the machine has no internet), and a probe that times connect() from a sandbox.

#include "escape_support.h"

#include <QHostAddress>
#include <QJsonDocument>
#include <QNetworkInterface>
#include <QProcess>
#include <arpa/inet.h>
#include <cerrno>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace lizard::test {

// Listens on 0.0.0.0 and :: (one dual-stack socket when the host has IPv6).
class HostListener
{
public:
    HostListener()
    {
        m_fd = ::socket(AF_INET6, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (m_fd >= 0) {
            int off = 0;
            ::setsockopt(m_fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof off);
            sockaddr_in6 a{};
            a.sin6_family = AF_INET6;
            a.sin6_addr = in6addr_any;
            if (::bind(m_fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
                ::close(m_fd);
                m_fd = -1;
            }
        }
        if (m_fd < 0) {
            m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
            sockaddr_in a{};
            a.sin_family = AF_INET;
            ::bind(m_fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
        }
        ::listen(m_fd, 64);
        sockaddr_storage s{};
        socklen_t len = sizeof s;
        ::getsockname(m_fd, reinterpret_cast<sockaddr*>(&s), &len);
        m_port = ntohs(reinterpret_cast<sockaddr_in*>(&s)->sin_port); // same offset in sockaddr_in6
    }
    ~HostListener() { ::close(m_fd); }
    int port() const { return m_port; }
    // Connections that arrived since the last call (accepted and closed).
    int takeConnections()
    {
        int n = 0;
        for (int c; (c = ::accept4(m_fd, nullptr, nullptr, SOCK_CLOEXEC)) >= 0; ++n)
            ::close(c);
        return n;
    }

private:
    int m_fd = -1;
    int m_port = 0;
};

// Every address of this host but loopback; IPv6 link-local ones with the sandbox's scope.
inline QStringList hostAddresses()
{
    QStringList out;
    for (const QHostAddress& a : QNetworkInterface::allAddresses()) {
        if (a.isLoopback())
            continue;
        QHostAddress plain(a);
        plain.setScopeId({});
        const QString text = plain.toString();
        out << (a.isLinkLocal() && a.protocol() == QAbstractSocket::IPv6Protocol ? text + "%tap0"
                                                                                 : text);
    }
    out.removeDuplicates();
    return out;
}

// A host that is not this one: network namespace `lzt-net-<pid>` behind a veth pair on a
// /30 of 172.31.0.0/16, with a TCP server that greets with "remote-ok".
// `ip netns add`, one at a time across suites: the first one on a host bind-mounts /run/netns
// onto itself to make it shared, and two doing that at once stack two mounts, hiding one
// suite's namespace under the other's ("setting the network namespace … failed: Invalid
// argument").
inline QStringList ipNetnsAdd(const QString& ns)
{
    return {"flock", "/run/lizard-test-netns.lock", "ip", "netns", "add", ns};
}

class VethHost
{
public:
    ~VethHost() { stop(); }
    bool start(QString* why)
    {
        const QString pid = QString::number(::getpid());
        m_ns = "lzt-net-" + pid;
        m_outer = "lztn" + pid + "a";
        const QString outer = m_outer, inner = "lztn" + pid + "b";
        const QString used = run({"ip", "-o", "addr"});
        int net = 100 + int(::getpid() % 150);
        while (used.contains(QStringLiteral("172.31.%1.").arg(net)))
            net = net % 250 + 1;
        hostSide = QStringLiteral("172.31.%1.1").arg(net);
        remote = QStringLiteral("172.31.%1.2").arg(net);
        for (const QStringList& cmd : QList<QStringList>{
                 ipNetnsAdd(m_ns),
                 {"ip", "link", "add", outer, "type", "veth", "peer", "name", inner, "netns", m_ns},
                 {"ip", "addr", "add", hostSide + "/30", "dev", outer},
                 {"ip", "link", "set", outer, "up"},
                 {"ip", "-n", m_ns, "addr", "add", remote + "/30", "dev", inner},
                 {"ip", "-n", m_ns, "link", "set", inner, "up"},
                 {"ip", "-n", m_ns, "link", "set", "lo", "up"}}) {
            QString err;
            if (run(cmd, &err).isNull()) {
                *why = cmd.join(' ') + ": " + err;
                return false;
            }
        }
        m_server.start("ip", {"netns", "exec", m_ns, "python3", "-u", "-c",
                              "import socket\n"
                              "s = socket.socket(); s.bind(('0.0.0.0', 0)); s.listen(16)\n"
                              "print(s.getsockname()[1], flush=True)\n"
                              "while True:\n"
                              "    c, _ = s.accept(); c.sendall(b'remote-ok\\n'); c.close()\n"});
        if (!m_server.waitForReadyRead(10000)) {
            *why = "the remote test server did not start: " +
                   QString::fromUtf8(m_server.readAllStandardError());
            return false;
        }
        port = m_server.readLine().trimmed().toInt();
        return port > 0;
    }
    void stop()
    {
        if (m_server.state() != QProcess::NotRunning) {
            m_server.kill();
            m_server.waitForFinished(5000);
        }
        if (!m_ns.isEmpty())
            run({"ip", "netns", "delete", m_ns}); // takes the veth pair along
        m_ns.clear();
    }
    // Gives this host one more address, or takes it away again (on the veth pair).
    bool addHostAddress(const QString& address, QString* why)
    {
        return !run({"ip", "addr", "add", address + "/32", "dev", m_outer}, why).isNull();
    }
    void removeHostAddress(const QString& address)
    {
        run({"ip", "addr", "del", address + "/32", "dev", m_outer});
    }
    QString hostSide, remote;
    int port = 0;
    // The namespace of the remote host, for a server of a test's own (ip netns exec).
    QString netns() const { return m_ns; }

private:
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
    QString m_ns, m_outer;
    QProcess m_server;
};

struct ConnectOutcome
{
    QString error; // "OK" or an errno name (ETIMEDOUT after 5 s)
    int ms = -1;
    QString reply; // first line the peer sent, if connected
};

// Python that connects to argv[1] port argv[2] and prints {"error","ms","reply"}.
inline QString pyConnectProbe()
{
    return QStringLiteral(
        "import errno, json, socket, sys, time\n"
        "host, port = sys.argv[1], int(sys.argv[2])\n"
        "fam = socket.AF_INET6 if ':' in host else socket.AF_INET\n"
        "s = socket.socket(fam, socket.SOCK_STREAM); s.settimeout(5)\n"
        "t = time.monotonic(); e = 0; reply = ''\n"
        "try:\n"
        "    s.connect(socket.getaddrinfo(host, port, fam, socket.SOCK_STREAM)[0][4])\n"
        "    reply = s.recv(64).decode(errors='replace').strip() if len(sys.argv) > 3 else ''\n"
        "except socket.timeout: e = errno.ETIMEDOUT\n"
        "except OSError as x: e = x.errno or errno.EIO\n"
        "print(json.dumps({'error': errno.errorcode.get(e, str(e)) if e else 'OK',\n"
        "                  'ms': int((time.monotonic() - t) * 1000), 'reply': reply}))\n");
}

inline ConnectOutcome connectFrom(const LocalServer& server, const QString& id, const QString& host,
                                  int port, bool readReply = false, QString* raw = nullptr)
{
    QStringList argv{"python3", "-c", pyConnectProbe(), host, QString::number(port)};
    if (readReply)
        argv << "read";
    const ProbeResult p = runArgv(server, id, argv);
    if (raw)
        *raw = p.describe();
    const QJsonObject o = QJsonDocument::fromJson(p.out.toUtf8()).object();
    return {o.value("error").toString("<no answer>"), o.value("ms").toInt(-1),
            o.value("reply").toString()};
}

// Python that hand-builds a TCP SYN to argv[2]:argv[1] and sends it on tap0 through a packet
// socket, which skips the routing table. Prints "socket <errno>" or "sent <gateway mac>".
inline QString pyRawSynProbe()
{
    return QStringLiteral(R"(import socket, struct, sys, time, os
port = int(sys.argv[1]); dst = sys.argv[2]
# learn the gateway MAC: any datagram to the DNS alias makes the kernel ARP for it
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.sendto(b'x', ('10.0.2.3', 9)); time.sleep(0.3)
mac = None
for line in open('/proc/net/arp').read().splitlines()[1:]:
    f = line.split()
    if f[0] == '10.0.2.3': mac = bytes.fromhex(f[3].replace(':', ''))
def csum(b):
    if len(b) % 2: b += b'\0'
    s = sum(struct.unpack('!%dH' % (len(b) // 2), b)); s = (s >> 16) + (s & 0xffff); s += s >> 16
    return (~s) & 0xffff
try:
    p = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
except OSError as e:
    print('socket', e.errno); sys.exit(0)
p.bind(('tap0', 0))
me = p.getsockname()[4]
src = socket.inet_aton('10.0.2.100'); d = socket.inet_aton(dst)
tcp = struct.pack('!HHIIBBHHH', 40000, port, 1, 0, 5 << 4, 0x02, 65535, 0, 0)
tcp = tcp[:16] + struct.pack('!H', csum(src + d + struct.pack('!BBH', 0, 6, len(tcp)) + tcp)) + tcp[18:]
ip = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + len(tcp), 1, 0, 64, 6, 0, src, d)
ip = ip[:10] + struct.pack('!H', csum(ip)) + ip[12:]
p.send(mac + me + b'\x08\x00' + ip + tcp)
time.sleep(0.5)
print('sent', mac.hex() if mac else None)
)");
}

} // namespace lizard::test
