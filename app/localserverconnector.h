#pragma once
// Finds the user's running lizard-local (server.json in its data dir, verified with
// GET /api/auth/me) or starts one detached, so closing the app leaves sandboxes running.

#include "client/lizardapi.h"

#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QTimer>
#include <functional>

namespace lizard::app {

struct LocalServerInfo
{
    QString url;
    QString apiKey;
    QString keyFile;
    qint64 pid = 0;
    bool startedByUs = false;
    QStringList notes; // capability notes the server printed (e.g. "resource limits not enforced")
};

class LocalServerConnector : public QObject
{
    Q_OBJECT
public:
    explicit LocalServerConnector(QString dataDir, QObject* parent = nullptr);

    static QString
    defaultDataDir();            // $XDG_DATA_HOME/lizard-local (else ~/.local/share/lizard-local)
    static QString findBinary(); // next to this executable, else on PATH; empty if none

    void setBinary(const QString& path) { m_binary = path; }
    void setLogPath(const QString& path) { m_logPath = path; }
    void setExtraArgs(const QStringList& args) { m_extraArgs = args; } // e.g. --port 0 (tests)
    QString logPath() const { return m_logPath; }
    void setStartTimeoutMs(int ms) { m_startTimeoutMs = ms; }

    void start(); // reports ready() or failed(), once

signals:
    void progress(const QString& text);
    void ready(const lizard::app::LocalServerInfo& info);
    void failed(const QString& message);

private:
    void launch();
    void pollLaunch();
    void verify(LocalServerInfo info, std::function<void()> onFailure);
    QString logTail() const;

    QString m_dataDir;
    QString m_binary;
    QString m_logPath;
    QStringList m_extraArgs;
    int m_startTimeoutMs = 90000;
    qint64 m_launchedPid = 0;
    qint64 m_launchStarted = 0;
    QTimer m_poll;
    QPointer<client::LizardApi> m_probe;
    bool m_done = false;
};

} // namespace lizard::app

Q_DECLARE_METATYPE(lizard::app::LocalServerInfo)
