#pragma once
// Test fixture: a real lizard-local on a free loopback port with a fresh data directory.
// Set LIZARD_TEST_SERVER_USER=<name> (when the tests run as root) to run the server as that
// unprivileged user instead, as an ordinary desktop user would.

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>
#include <memory>

namespace lizard::test {

class LocalServer
{
public:
    LocalServer();
    ~LocalServer();

    // Before the first start: use `dir` (which must exist) as the data directory instead of a
    // fresh temporary one, e.g. one on a file system a test controls. The fixture leaves it.
    void useDataDir(const QString& dir) { m_dataDir = dir; }
    // Starts the server and waits until it printed its URL. Returns false with errorString().
    bool start(const QStringList& extraArgs = {});
    void stop();    // SIGTERM, wait; sandboxes stay (they are adopted on the next start)
    bool restart(); // stop + start on the same data dir and port
    // SIGKILL of the server process itself (also when it runs as another user): no clean-up,
    // sandboxes keep running. False if its pid was not found.
    bool crash();

    QString url() const { return m_url; } // "http://127.0.0.1:PORT"
    int port() const { return m_port; }
    QString apiKey() const { return m_key; }
    QString dataDir() const { return m_dataDir; }
    QString keyFile() const { return m_keyFile; }
    QString errorString() const { return m_error; }
    QByteArray log() const; // everything the server printed
    bool runsAsOtherUser() const { return !m_user.isEmpty(); }
    QString serverUser() const { return m_user; }
    qint64 pid() const;
    // The lizard-local process itself (from its server.json; pid() is runuser's when the server
    // runs as another user); 0 when unknown.
    qint64 serverPid() const;

    // Synchronous HTTP helper for tests (blocking, with curl): returns status and body.
    struct Response
    {
        int status = 0;
        QByteArray body;
        QByteArray contentType;
    };
    Response request(const QByteArray& method, const QString& path, const QByteArray& body = {},
                     const QByteArray& key = QByteArray("<default>"),
                     const QList<QByteArray>& headers = {}) const;

    static QString serverBinary();

private:
    void deleteAllSandboxes();
    void killLeftSandboxes();
    void removeTempDir();

    std::unique_ptr<QTemporaryDir> m_tmp;
    std::unique_ptr<QProcess> m_proc;
    QString m_dataDir, m_url, m_key, m_keyFile, m_error, m_user;
    int m_port = 0;
    QByteArray m_log;
    QStringList m_extraArgs;
};

} // namespace lizard::test
