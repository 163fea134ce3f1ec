#include "tlsfront.h"

#include "wait.h"

#include <QFile>
#include <QFileInfo>
#include <QTcpServer>
#include <QTcpSocket>

namespace lizard::test {

namespace {

int freeLoopbackPort()
{
    QTcpServer probe;
    return probe.listen(QHostAddress::LocalHost, 0) ? probe.serverPort() : 0;
}

bool accepts(int port)
{
    QTcpSocket s;
    s.connectToHost(QHostAddress::LocalHost, quint16(port));
    return s.waitForConnected(200);
}

} // namespace

QString TlsFront::nginxBinary()
{
    for (const char* path : {"/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx"})
        if (QFileInfo(QString::fromLatin1(path)).isExecutable())
            return QString::fromLatin1(path);
    return {};
}

bool TlsFront::openssl(const QStringList& args)
{
    QProcess p;
    p.setWorkingDirectory(m_dir->path());
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral("openssl"), args);
    if (!p.waitForFinished(30000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        m_error = QStringLiteral("openssl %1 failed: %2")
                      .arg(args.join(QLatin1Char(' ')), QString::fromLocal8Bit(p.readAll()));
        return false;
    }
    return true;
}

bool TlsFront::makeCertificates()
{
    // EC keys: generating them takes milliseconds, RSA ones up to seconds on a busy machine.
    const QStringList ecKey{"-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"};
    if (!openssl(QStringList{"req", "-x509"} + ecKey +
                 QStringList{"-keyout", "ca.key", "-out", "ca.crt", "-days", "2", "-subj",
                             "/CN=Lizard test CA", "-addext", "basicConstraints=critical,CA:TRUE",
                             "-addext", "keyUsage=critical,keyCertSign,cRLSign"}))
        return false;
    // The two names nginx serves, and 127.0.0.1 for a test's own TLS server (an https:// proxy).
    const QList<QPair<QString, QString>> certificates{{m_host, "DNS:" + m_host},
                                                      {otherHostName(), "DNS:" + otherHostName()},
                                                      {"loopback", "IP:127.0.0.1"}};
    for (const auto& [name, altName] : certificates) {
        if (!openssl(QStringList{"req"} + ecKey +
                     QStringList{"-keyout", name + ".key", "-out", name + ".csr", "-subj",
                                 "/CN=" + name}))
            return false;
        QFile ext(m_dir->filePath(name + ".ext"));
        if (!ext.open(QIODevice::WriteOnly) ||
            ext.write(("subjectAltName=" + altName + "\nextendedKeyUsage=serverAuth\n").toUtf8()) <
                0)
            return false;
        ext.close();
        if (!openssl({"x509", "-req", "-in", name + ".csr", "-CA", "ca.crt", "-CAkey", "ca.key",
                      "-CAcreateserial", "-days", "2", "-out", name + ".crt", "-extfile",
                      name + ".ext"}))
            return false;
    }
    return true;
}

bool TlsFront::writeConfig(int backendPort)
{
    const QString d = m_dir->path();
    QString servers;
    for (const auto& [port, name] :
         {std::pair{m_port, m_host}, std::pair{m_otherPort, otherHostName()}}) {
        servers += QStringLiteral(R"(
    server {
        listen 127.0.0.1:%1 ssl http2;
        server_name %2;
        ssl_certificate %3/%2.crt;
        ssl_certificate_key %3/%2.key;
        location / {
            proxy_pass http://127.0.0.1:%4;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_buffering off;
            proxy_request_buffering off;
            proxy_read_timeout 600s;
            proxy_send_timeout 600s;
        }
    }
)")
                       .arg(port)
                       .arg(name, d)
                       .arg(backendPort);
    }
    const QString conf = QStringLiteral(R"(
daemon off;
master_process off;
worker_processes 1;
pid %1/nginx.pid;
error_log %1/error.log info;
events { worker_connections 512; }
http {
    log_format proto '$server_protocol $request_method $uri $status';
    access_log %1/access.log proto;
    client_body_temp_path %1/body;
    proxy_temp_path %1/proxy;
    fastcgi_temp_path %1/fastcgi;
    uwsgi_temp_path %1/uwsgi;
    scgi_temp_path %1/scgi;
    client_max_body_size 0;
    # WebSocket upgrades (a terminal's attach) pass as a reverse proxy must pass them; every
    # other request keeps its keep-alive connection to the backend.
    map $http_upgrade $connection_upgrade {
        default upgrade;
        '' '';
    }
%2}
)")
                             .arg(d, servers);
    QFile f(m_dir->filePath(QStringLiteral("nginx.conf")));
    return f.open(QIODevice::WriteOnly) && f.write(conf.toUtf8()) == conf.toUtf8().size();
}

bool TlsFront::start(int backendPort)
{
    if (nginxBinary().isEmpty()) {
        m_error =
            QStringLiteral("nginx is not installed (scripts/install-deps.sh installs nginx-light)");
        return false;
    }
    m_dir = std::make_unique<QTemporaryDir>();
    m_port = freeLoopbackPort();
    m_otherPort = freeLoopbackPort();
    if (!m_dir->isValid() || m_port == 0 || m_otherPort == 0 || m_port == m_otherPort) {
        m_error = QStringLiteral("no temporary directory or free port");
        return false;
    }
    if (!makeCertificates())
        return false;
    if (!writeConfig(backendPort)) {
        m_error = QStringLiteral("cannot write nginx.conf");
        return false;
    }
    return launch();
}

bool TlsFront::restart()
{
    stop();
    return launch();
}

bool TlsFront::launch()
{
    m_proc = std::make_unique<QProcess>();
    m_proc->setProcessChannelMode(QProcess::MergedChannels);
    // -e: the start-up error log, before the configuration names its own (else /var/log/nginx).
    m_proc->start(nginxBinary(),
                  {"-p", m_dir->path(), "-c", m_dir->filePath(QStringLiteral("nginx.conf")), "-e",
                   m_dir->filePath(QStringLiteral("error.log"))});
    if (!m_proc->waitForStarted(10000)) {
        m_error = QStringLiteral("nginx did not start: ") + m_proc->errorString();
        return false;
    }
    const bool up = waitUntil(
        [this] {
            return m_proc->state() != QProcess::Running ||
                   (accepts(m_port) && accepts(m_otherPort));
        },
        15000);
    if (!up || m_proc->state() != QProcess::Running) {
        m_error = QStringLiteral("nginx is not listening: ") +
                  QString::fromLocal8Bit(m_proc->readAll()) +
                  QString::fromLocal8Bit(errorLog().right(2000));
        stop();
        return false;
    }
    return true;
}

void TlsFront::stop()
{
    if (!m_proc || m_proc->state() == QProcess::NotRunning)
        return;
    m_proc->terminate();
    if (!m_proc->waitForFinished(10000)) {
        m_proc->kill();
        m_proc->waitForFinished(5000);
    }
}

void TlsFront::kill()
{
    if (!m_proc || m_proc->state() == QProcess::NotRunning)
        return;
    m_proc->kill();
    m_proc->waitForFinished(5000);
}

QByteArray TlsFront::accessLog() const
{
    QFile f(m_dir ? m_dir->filePath(QStringLiteral("access.log")) : QString());
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QByteArray TlsFront::errorLog() const
{
    QFile f(m_dir ? m_dir->filePath(QStringLiteral("error.log")) : QString());
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace lizard::test
