#pragma once
// Shared by the tst_coderun* suites: a real lizard-local with one `interpreter` sandbox, a
// CodeInterpreter on it, and a helper that waits for a run to end.

#include "client/coderun/codeinterpreter.h"
#include "support/sandboxfixture.h"

#include <QTest>
#include <memory>

namespace lizard::test {

class CodeRunFixture : public SandboxFixture
{
public:
    // An `interpreter` sandbox, which may take a while to start the first time.
    QString start() { return SandboxFixture::start(QStringLiteral("interpreter"), 1800000); }

    std::unique_ptr<client::CodeInterpreter> interpreter(bool fastPath)
    {
        auto i = std::make_unique<client::CodeInterpreter>(&api(), sandboxId());
        i->setFastPathEnabled(fastPath);
        return i;
    }

    // A shell command in the sandbox, waited for; its stdout.
    QString shell(const QString& command)
    {
        ApiWaiter<client::ExecResult> r;
        api().exec(sandboxId(), command, {}, nullptr, r.done());
        return r.wait(120000) && r.ok()
                   ? r.value().stdoutText
                   : QStringLiteral("<failed: %1>").arg(QString::fromUtf8(r.why()));
    }
};

// Spins the event loop until the run ended (finished or failed).
inline bool waitRun(client::CodeRun* run, int timeoutMs = 120000)
{
    return waitUntil([run] { return run->isFinished(); }, timeoutMs);
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
        out += " error=" + e.error->name.toUtf8() + ": " + e.error->message.toUtf8() + "\n" +
               e.error->traceback.toUtf8();
    return out;
}

} // namespace lizard::test
