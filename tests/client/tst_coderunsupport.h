#pragma once
// Shared by the tst_coderun* suites: a real lizard-local with one `interpreter` sandbox, a
// CodeInterpreter on it, and a helper that waits for a run to end.

#include "apiwaiter.h"

#include "client/coderun/codeinterpreter.h"
#include "client/lizardapi.h"
#include "support/localserver.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QTest>

#include <memory>

namespace lizard::test {

class CodeRunFixture
{
public:
    // Empty on success, else what failed.
    QString start()
    {
        if (!m_server.start())
            return QStringLiteral("lizard-local did not start: ") + m_server.errorString();
        m_api = std::make_unique<client::LizardApi>(client::Endpoint{m_server.url(), m_server.apiKey()});
        ApiWaiter<QList<client::Project>> projects;
        m_api->listProjects(nullptr, projects.done());
        if (!projects.wait() || !projects.ok() || projects.value().isEmpty())
            return QStringLiteral("no project: ") + QString::fromUtf8(projects.why());
        client::CreateSandboxRequest req;
        req.projectId = projects.value().first().id;
        req.templateName = QStringLiteral("interpreter");
        req.timeoutMs = 1800000;
        ApiWaiter<client::SandboxInfo> created;
        m_api->createSandbox(req, nullptr, created.done());
        if (!created.wait(300000) || !created.ok())
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
            if (!killed.wait(30000) || !killed.ok())
                qWarning().noquote() << "killing" << m_sandboxId << "failed:" << killed.why() << "\n"
                                     << QString::fromUtf8(m_server.log().right(3000));
        }
        m_api.reset();
        m_server.stop();
    }

    void reportIfFailed() const
    {
        if (QTest::currentTestFailed())
            qWarning().noquote() << "lizard-local log (end):\n" << QString::fromUtf8(m_server.log().right(4000));
    }

    std::unique_ptr<client::CodeInterpreter> interpreter(bool fastPath)
    {
        auto i = std::make_unique<client::CodeInterpreter>(m_api.get(), m_sandboxId);
        i->setFastPathEnabled(fastPath);
        return i;
    }

    client::LizardApi& api() { return *m_api; }
    LocalServer& server() { return m_server; }
    QString sandboxId() const { return m_sandboxId; }

    // A shell command in the sandbox, waited for; its stdout.
    QString shell(const QString& command)
    {
        ApiWaiter<client::ExecResult> r;
        m_api->exec(m_sandboxId, command, {}, nullptr, r.done());
        return r.wait(120000) && r.ok() ? r.value().stdoutText : QStringLiteral("<failed: %1>").arg(QString::fromUtf8(r.why()));
    }

private:
    LocalServer m_server;
    std::unique_ptr<client::LizardApi> m_api;
    QString m_sandboxId;
};

// Spins the event loop until the run ended (finished or failed).
inline bool waitRun(client::CodeRun* run, int timeoutMs = 120000)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!run->isFinished() && !deadline.hasExpired())
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
    return run->isFinished();
}

// Runs code and returns the run (owned by the interpreter) once it ended.
inline client::CodeRun* runToEnd(client::CodeInterpreter& interp, const QString& code,
                                 const client::RunCodeOptions& options = {}, int timeoutMs = 120000)
{
    client::CodeRun* run = interp.runCode(code, options);
    waitRun(run, timeoutMs);
    return run;
}

inline QByteArray describe(const client::CodeRun* run)
{
    if (!run->isFinished())
        return "the run did not end in time";
    if (run->hasFailed())
        return "failed: " + run->failure()->toDisplayString().toUtf8();
    const client::Execution& e = run->execution();
    QByteArray out = "stdout=" + e.stdoutText.toUtf8() + " stderr=" + e.stderrText.toUtf8();
    if (e.error)
        out += " error=" + e.error->name.toUtf8() + ": " + e.error->message.toUtf8() + "\n" + e.error->traceback.toUtf8();
    return out;
}

} // namespace lizard::test
