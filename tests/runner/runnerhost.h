#pragma once
// Runs the in-sandbox code runner directly on this host (no sandbox), one-shot, with its context
// root (LIZARD_CODE_ROOT) in a directory of the test's choosing.

#include "runner/eventdecoder.h"

#include <QJsonObject>
#include <QProcessEnvironment>
#include <QString>

namespace lizard::test {

class RunnerHost
{
public:
    explicit RunnerHost(const QString& root);

    static QString script();      // <build>/runner/lizard_runner.py, the bundled artefact
    static QString python();      // a python3 that has jupyter_client and ipykernel, or ""
    static QString plainPython(); // any python3, or ""
    static QByteArray encodeArgs(const QJsonObject& args);

    QString root() const { return m_root; }
    QString cwd() const { return m_root + "/work"; } // contexts' working directory in tests
    QProcessEnvironment environment() const;
    void setEnv(const QString& name, const QString& value) { m_extraEnv.insert(name, value); }

    // One-shot: `python3 lizard_runner.py <b64 args>` (or `python3 -c <source> <b64>`), to the end.
    RunnerOutcome run(const QJsonObject& args, int timeoutMs = 90000, bool asDashC = false) const;
    RunnerOutcome runRaw(const QStringList& argv, int timeoutMs = 30000) const;

    // Convenience for the common case: run code in a context.
    RunnerOutcome runCode(const QString& context, const QString& code,
                          const QJsonObject& extra = {}) const;
    QString createContext(const QString& language = "python") const; // "" on failure

    // SIGKILLs every kernel (and its watcher) still running under the root. For cleanup().
    void killKernels() const;
    static qint64 kernelPid(const QString& root, const QString& context);

private:
    QString m_root;
    QProcessEnvironment m_extraEnv;
};

} // namespace lizard::test
