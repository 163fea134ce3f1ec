#include "client/coderun/oneshotexec.h"

#include "client/coderun/runnercall.h"
#include "client/lizardapi.h"

#include <QTimer>
#include <algorithm>

namespace lizard::client {

OneShotExec::OneShotExec(RunnerCall* call) : QObject(call), m_call(call) {}

void OneShotExec::start(LizardApi* api, const QString& sandboxId, const QByteArray& source,
                        RunnerCall* call)
{
    if (source.isEmpty()) {
        QTimer::singleShot(0, call, [call] {
            call->fail(
                runnerError(QStringLiteral("the runner is missing from the app's resources")));
        });
        return;
    }
    auto* self = new OneShotExec(call);
    ExecOptions opts;
    const bool isRun = call->action() == QLatin1String("run");
    // A run: its own timeout plus time to start python and the kernel; anything else: kernel
    // starts and variable files, well within the exec cap.
    opts.timeoutMs = isRun ? int(std::min(600.0, call->timeoutS() + 30) * 1000) : 300000;
    const QStringList argv{QStringLiteral("python3"), QStringLiteral("-c"),
                           QString::fromUtf8(source), encodeRunnerArgs(call->request())};
    ExecStream* stream = api->execStreamArgv(sandboxId, argv, opts);
    stream->setParent(self);
    connect(stream, &ExecStream::output, self, &OneShotExec::onLines);
    connect(stream, &ExecStream::exited, self, &OneShotExec::onExited);
    connect(stream, &ExecStream::failed, self, [self](const ApiError& error) {
        if (self->m_call)
            self->m_call->fail(error);
    });
}

void OneShotExec::onLines(const QList<OutputLine>& lines)
{
    for (const OutputLine& line : lines) {
        if (!m_call)
            return;
        if (line.stream == OutputStream::Stderr) {
            m_stderrTail.append(line.text);
            if (m_stderrTail.size() > 20)
                m_stderrTail.removeFirst();
            continue;
        }
        if (const auto ev = m_decoder.feed(line.text))
            m_call->deliver(*ev);
    }
}

void OneShotExec::onExited(int exitCode)
{
    if (!m_call || m_call->isEnded())
        return;
    QString why =
        QStringLiteral("the code runner ended (exit code %1) without an answer").arg(exitCode);
    if (exitCode == 127)
        why += QStringLiteral(": python3 is not installed in this sandbox");
    if (!m_stderrTail.isEmpty())
        why += QStringLiteral(": ") + m_stderrTail.join(QLatin1Char('\n')).right(2000);
    m_call->fail(runnerError(why));
}

} // namespace lizard::client
