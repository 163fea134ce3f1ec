#pragma once
// Fixture of the client, model and UI suites against a real lizard-local: starts the server,
// makes a LizardApi for it, and creates one sandbox in the default project for the tests to
// share. (Needs lizard_client, as support/apiwait.h does.)

#include "client/lizardapi.h"
#include "support/apiwait.h"
#include "support/localserver.h"
#include "support/sandboxpolicy.h"

#include <QTest>
#include <memory>

namespace lizard::test {

class SandboxFixture
{
public:
    // lizard-local's extra arguments, for start().
    void setServerArgs(const QStringList& args) { m_serverArgs = args; }
    // Starts the server and creates the sandbox (`templateName` empty: the default one).
    // Returns an empty string on success, else what failed.
    QString start(const QString& templateName = {}, int lifetimeMs = 900000)
    {
        if (!m_server.start(m_serverArgs))
            return QStringLiteral("lizard-local did not start: ") + m_server.errorString();
        m_api = std::make_unique<client::LizardApi>(
            client::Endpoint{m_server.url(), m_server.apiKey()});
        ApiWaiter<QList<client::Project>> projects;
        m_api->listProjects(nullptr, projects.done());
        if (!projects.wait() || !projects.ok() || projects.value().isEmpty())
            return QStringLiteral("no project: ") + QString::fromUtf8(projects.why());
        m_projectId = projects.value().first().id;
        client::CreateSandboxRequest req;
        req.projectId = m_projectId;
        req.templateName = templateName;
        req.timeoutMs = lifetimeMs;
        QString why;
        m_sandboxId = startSandbox(*m_api, req, &why);
        if (m_sandboxId.isEmpty()) {
            m_hostLacksSandboxes = why.startsWith(QLatin1String("HTTP 503"));
            return QStringLiteral("create sandbox: ") + why + "\n" +
                   QString::fromUtf8(m_server.log().right(3000));
        }
        return {};
    }

    // After a failed start(): the server said this host cannot create sandboxes (503), which
    // LIZ_NO_SANDBOX may report as a skip (support/sandboxpolicy.h).
    bool hostLacksSandboxes() const { return m_hostLacksSandboxes; }

    // Kills the sandbox (saying why when that fails) and stops the server.
    void stop()
    {
        if (m_api && !m_sandboxId.isEmpty()) {
            ApiWaiter<client::Unit> killed;
            m_api->killSandbox(m_sandboxId, nullptr, killed.done());
            if (!killed.wait(30000) || !killed.ok())
                qWarning().noquote()
                    << "killing" << m_sandboxId << "failed:" << killed.why() << "\n"
                    << QString::fromUtf8(m_server.log().right(3000));
        }
        m_api.reset();
        m_server.stop();
    }

    // After a failed test: the end of the server's log, to tell client bugs from server ones.
    void reportIfFailed() const
    {
        if (QTest::currentTestFailed())
            qWarning().noquote() << "lizard-local log (end):\n"
                                 << QString::fromUtf8(m_server.log().right(4000));
    }

    client::LizardApi& api() { return *m_api; }
    LocalServer& server() { return m_server; }
    QString projectId() const { return m_projectId; }
    QString sandboxId() const { return m_sandboxId; }

private:
    LocalServer m_server;
    std::unique_ptr<client::LizardApi> m_api;
    QString m_projectId;
    QString m_sandboxId;
    QStringList m_serverArgs;
    bool m_hostLacksSandboxes = false;
};

} // namespace lizard::test
