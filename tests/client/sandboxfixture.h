#pragma once
// Test fixture for client tests against a real lizard-local: starts the server, makes a
// LizardApi for it, and creates one sandbox in the default project for the tests to share.

#include "apiwaiter.h"

#include "client/lizardapi.h"
#include "support/localserver.h"

#include <QTest>

#include <memory>

namespace lizard::test {

class SandboxFixture
{
public:
    // Returns an empty string on success, else what failed.
    QString start()
    {
        if (!m_server.start())
            return QStringLiteral("lizard-local did not start: ") + m_server.errorString();
        m_api = std::make_unique<client::LizardApi>(client::Endpoint{m_server.url(), m_server.apiKey()});
        ApiWaiter<QList<client::Project>> projects;
        m_api->listProjects(nullptr, projects.done());
        if (!projects.wait() || !projects.ok() || projects.value().isEmpty())
            return QStringLiteral("no project: ") + QString::fromUtf8(projects.why());
        m_projectId = projects.value().first().id;
        client::CreateSandboxRequest req;
        req.projectId = m_projectId;
        req.timeoutMs = 900000;
        ApiWaiter<client::SandboxInfo> created;
        m_api->createSandbox(req, nullptr, created.done());
        if (!created.wait(180000) || !created.ok())
            return QStringLiteral("create sandbox: ") + QString::fromUtf8(created.why()) + "\n" +
                   QString::fromUtf8(m_server.log().right(3000));
        m_sandboxId = created.value().sandboxId;
        return {};
    }

    void stop()
    {
        if (m_api && !m_sandboxId.isEmpty()) {
            ApiWaiter<client::Unit> killed;
            m_api->killSandbox(m_sandboxId, nullptr, killed.done());
            killed.wait(30000);
        }
        m_api.reset();
        m_server.stop();
    }

    // After a failed test: the end of the server's log, to tell client bugs from server ones.
    void reportIfFailed() const
    {
        if (QTest::currentTestFailed())
            qWarning().noquote() << "lizard-local log (end):\n" << QString::fromUtf8(m_server.log().right(4000));
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
};

} // namespace lizard::test
