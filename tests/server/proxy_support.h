#pragma once
// Helpers of the port proxy suites: a stdlib-only HTTP/1.1 + WebSocket echo server started
// inside a sandbox, exposing its port, and raw HTTP over QTcpSocket (so the tests control
// every header, the Host header included, and see redirects and cookies as they are).

#include "support/wait.h"
#include "support_http.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QMap>
#include <QNetworkProxy>
#include <QTcpSocket>
#include <QThread>

namespace lizard::test {

// GET /headers (any path): JSON {method, path, headers:[[k,v]...], bodyLength, bodySha256}.
// GET /big?mb=N: N MiB of the bytes 0..255 repeated. GET /ws with Upgrade: WebSocket echo.
inline const char* const kSandboxServerPy = R"py(
import base64, hashlib, json, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, code, body, ctype="application/json"):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        if self.path.startswith("/ws") and self.headers.get("Upgrade", "").lower() == "websocket":
            return self.websocket()
        if self.path.startswith("/big"):
            return self.big()
        self.echo(b"")

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.echo(body)

    def echo(self, body):
        out = {"method": self.command, "path": self.path,
               "headers": [[k, v] for k, v in self.headers.items()],
               "bodyLength": len(body), "bodySha256": hashlib.sha256(body).hexdigest()}
        self.reply(200, json.dumps(out).encode())

    def big(self):
        mb = int(self.path.split("mb=")[1]) if "mb=" in self.path else 1
        chunk = bytes(range(256)) * 256
        total = mb * 1024 * 1024
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(total))
        self.end_headers()
        sent = 0
        while sent < total:
            self.wfile.write(chunk)
            sent += len(chunk)

    def websocket(self):
        key = self.headers["Sec-WebSocket-Key"]
        accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
        self.send_response(101)
        self.send_header("Upgrade", "websocket")
        self.send_header("Connection", "Upgrade")
        self.send_header("Sec-WebSocket-Accept", accept)
        self.end_headers()
        self.wfile.flush()
        self.close_connection = True
        while True:
            head = self.rfile.read(2)
            if len(head) < 2:
                return
            opcode, n = head[0] & 0x0F, head[1] & 0x7F
            if n == 126:
                n = int.from_bytes(self.rfile.read(2), "big")
            elif n == 127:
                n = int.from_bytes(self.rfile.read(8), "big")
            mask = self.rfile.read(4) if head[1] & 0x80 else b"\0\0\0\0"
            data = bytes(b ^ mask[i & 3] for i, b in enumerate(self.rfile.read(n)))
            if opcode == 8:
                self.wfile.write(bytes([0x88, 0]))
                return
            if n < 126:
                head = bytes([0x80 | opcode, n])
            elif n < 65536:
                head = bytes([0x80 | opcode, 126]) + n.to_bytes(2, "big")
            else:
                head = bytes([0x80 | opcode, 127]) + n.to_bytes(8, "big")
            self.wfile.write(head + data)

ThreadingHTTPServer.daemon_threads = True
ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
)py";

struct RawResponse
{
    int status = 0;
    QMap<QByteArray, QByteArray> headers; // lower-case names; repeated ones joined with '\n'
    QByteArray body;
    QString error; // empty when a whole answer arrived
    QByteArray header(const QByteArray& name) const { return headers.value(name.toLower()); }
};

// One client connection speaking raw HTTP/1.1.
class RawHttp
{
public:
    RawHttp() { m_socket.setProxy(QNetworkProxy::NoProxy); }

    bool connectTo(const QString& address, quint16 port, int timeoutMs = 5000)
    {
        m_socket.connectToHost(address, port);
        return m_socket.waitForConnected(timeoutMs);
    }
    QTcpSocket& socket() { return m_socket; }

    // Sends `request` as is and reads one answer (Content-Length body, or until close).
    RawResponse exchange(const QByteArray& request, int timeoutMs = 30000)
    {
        m_socket.write(request);
        return readResponse(timeoutMs);
    }

    RawResponse readResponse(int timeoutMs = 30000)
    {
        RawResponse r;
        QElapsedTimer t;
        t.start();
        int end = -1;
        while ((end = m_buffer.indexOf("\r\n\r\n")) < 0) {
            if (!waitMore(timeoutMs - int(t.elapsed()))) {
                r.error = "no complete header: " + QString::fromLatin1(m_buffer.left(200));
                return r;
            }
        }
        const QList<QByteArray> lines = m_buffer.left(end).split('\n');
        m_buffer.remove(0, end + 4);
        const QList<QByteArray> statusLine = lines.value(0).trimmed().split(' ');
        r.status = statusLine.value(1).toInt();
        for (int i = 1; i < lines.size(); ++i) {
            const int colon = lines[i].indexOf(':');
            if (colon <= 0)
                continue;
            const QByteArray name = lines[i].left(colon).trimmed().toLower();
            const QByteArray value = lines[i].mid(colon + 1).trimmed();
            r.headers[name] = r.headers.contains(name) ? r.headers[name] + "\n" + value : value;
        }
        if (r.status / 100 == 1 || r.status == 204 || r.status == 304)
            return r;
        if (r.headers.contains("content-length")) {
            const qint64 length = r.headers["content-length"].toLongLong();
            while (m_buffer.size() < length)
                if (!waitMore(timeoutMs - int(t.elapsed()))) {
                    r.error = "short body";
                    return r;
                }
            r.body = m_buffer.left(length);
            m_buffer.remove(0, length);
            return r;
        }
        while (waitMore(timeoutMs - int(t.elapsed())))
            ;
        r.body = m_buffer;
        m_buffer.clear();
        return r;
    }

    // Bytes already read past the last answer.
    QByteArray& buffer() { return m_buffer; }

    bool waitMore(int timeoutMs)
    {
        if (m_socket.bytesAvailable() == 0 &&
            (m_socket.state() != QAbstractSocket::ConnectedState ||
             !m_socket.waitForReadyRead(qMax(timeoutMs, 1))))
            return false;
        m_buffer += m_socket.readAll();
        return true;
    }

private:
    QTcpSocket m_socket;
    QByteArray m_buffer;
};

inline QByteArray rawRequest(const QByteArray& method, const QByteArray& target,
                             const QByteArray& host, const QList<QByteArray>& headers = {},
                             const QByteArray& body = {}, bool keepAlive = false)
{
    QByteArray r = method + " " + target + " HTTP/1.1\r\nHost: " + host + "\r\n";
    for (const auto& h : headers)
        r += h + "\r\n";
    if (!body.isEmpty() || method == "POST")
        r += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    if (!keepAlive)
        r += "Connection: close\r\n";
    return r + "\r\n" + body;
}

// One request on a new connection to hostname ("127.x.y.z:PORT"); Host is the hostname
// unless `host` is given.
inline RawResponse proxyRequest(const QString& hostname, const QByteArray& method,
                                const QByteArray& target, const QList<QByteArray>& headers = {},
                                const QByteArray& host = {}, const QByteArray& body = {})
{
    RawHttp http;
    const QString address = hostname.section(':', 0, 0);
    const quint16 port = quint16(hostname.section(':', 1, 1).toUInt());
    if (!http.connectTo(address, port)) {
        RawResponse r;
        r.error = "cannot connect to " + hostname + ": " + http.socket().errorString();
        return r;
    }
    return http.exchange(
        rawRequest(method, target, host.isEmpty() ? hostname.toLatin1() : host, headers, body));
}

inline QByteArray tokenHeader(const QString& token)
{
    return "X-Lizard-Access-Token: " + token.toLatin1();
}

// Writes the echo server into the sandbox and starts it on `port` (in the background).
inline bool startSandboxServer(const LocalServer& server, const QString& sandboxId, int port,
                               QString* why)
{
    const QString base = "/api/sandboxes/" + sandboxId;
    auto w = server.request("POST", base + "/files",
                            toJson({{"path", "/opt/echo/server.py"},
                                    {"content", QString::fromUtf8(kSandboxServerPy)}}));
    if (w.status != 204) {
        *why = "write server.py: " + describe(w);
        return false;
    }
    const QString cmd =
        QString("setsid python3 /opt/echo/server.py %1 >/tmp/echo-%1.log 2>&1 </dev/null &")
            .arg(port);
    auto e = server.request("POST", base + "/exec", toJson({{"cmd", cmd}}));
    if (e.status != 200 || jsonObject(e).value("exitCode").toInt() != 0) {
        *why = "start server.py: " + describe(e);
        return false;
    }
    return true;
}

struct Exposed
{
    QString hostname, url, token;
    int port = 0;
};

inline Exposed expose(const LocalServer& server, const QString& sandboxId, int port,
                      QString* why = nullptr)
{
    const auto r =
        server.request("POST", QString("/api/sandboxes/%1/expose/%2").arg(sandboxId).arg(port));
    const QJsonObject o = jsonObject(r);
    if (r.status != 200 && why)
        *why = describe(r);
    return {o.value("hostname").toString(), o.value("url").toString(),
            o.value("accessToken").toString(), o.value("port").toInt()};
}

// Waits until the sandbox's server answers through the proxy (502 while it starts).
inline bool waitUntilServing(const Exposed& e, int timeoutMs = 20000)
{
    return waitUntil(
        [&] {
            return proxyRequest(e.hostname, "GET", "/ready", {tokenHeader(e.token)}).status == 200;
        },
        timeoutMs, 100);
}

} // namespace lizard::test
