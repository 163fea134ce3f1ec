#pragma once
// Exec-per-run (internal to client/coderun): carries one RunnerCall as its own
// `python3 -c <runner> <b64 json>` streaming exec. It is a child of the call and ends with it.

#include "client/coderun/runnerevents.h"
#include "client/lizardapi.h"

#include <QObject>
#include <QPointer>
#include <QStringList>

namespace lizard::client {

class RunnerCall;

class OneShotExec : public QObject
{
    Q_OBJECT
public:
    // Starts at once; the outcome reaches `call` from the event loop.
    static void start(LizardApi* api, const QString& sandboxId, const QByteArray& source,
                      RunnerCall* call);

private:
    OneShotExec(RunnerCall* call);
    void onLines(const QList<OutputLine>& lines);
    void onExited(int exitCode);

    QPointer<RunnerCall> m_call;
    RunnerEventDecoder m_decoder;
    QStringList m_stderrTail;
};

// The longest run (s) the runner is asked for on any path: the exec API caps a command at 600 s.
constexpr double kMaxRunTimeoutS = 570;

} // namespace lizard::client
