#pragma once
// Test fixture: nginx as an HTTPS (HTTP/2) terminator in front of a lizard-local, the way a
// cloud endpoint or a company's reverse proxy sits in front of an API. Makes its own test
// certificate authority and two server certificates with the openssl CLI, and runs nginx as a
// child process of the test (this user, a temporary prefix, one process, no daemon).
//
//   port():          certificate for hostName(), signed by the test CA (caFile())
//   otherHostPort(): certificate for another host name, signed by the same CA
//
// Both proxy to the backend with buffering off both ways, so SSE streams and uploads stream,
// and pass WebSocket upgrades (over HTTP/1.1: nginx proxies no WebSocket over HTTP/2).

#include <QProcess>
#include <QString>
#include <QTemporaryDir>
#include <memory>

namespace lizard::test {

class TlsFront
{
public:
    explicit TlsFront(QString hostName) : m_host(std::move(hostName)) {}
    ~TlsFront() { stop(); }

    static QString nginxBinary(); // empty when nginx is not installed

    // Makes the CA and certificates, picks two free loopback ports and starts nginx in front of
    // http://127.0.0.1:backendPort. Returns false with errorString().
    bool start(int backendPort);
    // Starts nginx again on the same ports and certificates (after kill() or stop()).
    bool restart();
    void stop(); // SIGTERM, wait
    void kill(); // SIGKILL: every connection drops at once, as when a proxy dies

    QString hostName() const { return m_host; }
    QString otherHostName() const { return QStringLiteral("other.") + m_host; }
    int port() const { return m_port; }
    int otherHostPort() const { return m_otherPort; }
    // The value of the client's test-only LIZARD_TEST_RESOLVE (client/tlsconfig.h) that sends
    // hostName() on both ports to 127.0.0.1.
    QByteArray resolveHook() const
    {
        return QStringLiteral("%1:%2:127.0.0.1,%1:%3:127.0.0.1")
            .arg(m_host)
            .arg(m_port)
            .arg(m_otherPort)
            .toUtf8();
    }
    QString caFile() const { return m_dir ? m_dir->filePath(QStringLiteral("ca.crt")) : QString(); }
    // A certificate for 127.0.0.1 signed by the same CA, and its key, for a test's own TLS
    // server on loopback.
    QString loopbackCertFile() const
    {
        return m_dir ? m_dir->filePath(QStringLiteral("loopback.crt")) : QString();
    }
    QString loopbackKeyFile() const
    {
        return m_dir ? m_dir->filePath(QStringLiteral("loopback.key")) : QString();
    }
    // One line per request: "<protocol> <method> <uri> <status>", e.g. "HTTP/2.0 GET /api/auth/me
    // 200".
    QByteArray accessLog() const;
    QByteArray errorLog() const;
    QString errorString() const { return m_error; }

private:
    bool openssl(const QStringList& args);
    bool makeCertificates();
    bool writeConfig(int backendPort);
    bool launch();

    QString m_host;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QProcess> m_proc;
    int m_port = 0;
    int m_otherPort = 0;
    QString m_error;
};

} // namespace lizard::test
