#pragma once
// NotebookKernel on the client's code interpreter (client/coderun) through the notebook's
// ClientCodeRunner: contexts listed/created/restarted in the sandbox, the kernel state and
// notices as the runner reports them.

#include "notebook/notebookkernel.h"

#include <QPointer>

namespace lizard::client {
class CodeInterpreter;
class LizardApi;
} // namespace lizard::client

namespace lizard::notebook {
class ClientCodeRunner;
}

namespace lizard::notebook {

class ClientNotebookKernel : public NotebookKernel
{
    Q_OBJECT
public:
    // Owns interpreter (made for the sandbox on api); runner runs on it (not owned).
    ClientNotebookKernel(client::CodeInterpreter* interpreter,
                         lizard::notebook::ClientCodeRunner* runner, QObject* parent = nullptr);
    ~ClientNotebookKernel() override;

    ContextChoice context() const override;
    QString state() const override;
    void listContexts(ListDone done) override;
    void createContext(const QString& language, ContextDone done) override;
    void selectContext(const ContextChoice& context) override;
    void restart(Done done) override;
    void startKernel() override;

    // The connection is going away: drop the interpreter (runs fail until attach()).
    void detach();
    // A new connection: runs go through interpreter (made for the same sandbox; owned from now
    // on) on the same context, so a kernel that is still alive keeps its variables.
    void attach(client::CodeInterpreter* interpreter);
    // Another sandbox: runs go through interpreter (owned from now on) on the default context of
    // the current language, since the old sandbox's contexts do not exist there.
    void rebind(client::CodeInterpreter* interpreter);
    client::CodeInterpreter* interpreter() const
    {
        return m_interpreterObject ? m_interpreter : nullptr;
    }

private:
    void setInterpreter(client::CodeInterpreter* interpreter);

    QPointer<QObject>
        m_interpreterObject; // guards m_interpreter (deleted by detach() or its owner)
    client::CodeInterpreter* m_interpreter = nullptr;
    QPointer<lizard::notebook::ClientCodeRunner> m_runner;
    QString m_cwd;
};

} // namespace lizard::notebook
