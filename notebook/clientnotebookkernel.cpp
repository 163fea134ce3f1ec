#include "notebook/clientnotebookkernel.h"

#include "client/coderun/codeinterpreter.h"
#include "notebook/clientcoderunner.h"

namespace lizard::notebook {

using lizard::notebook::ClientCodeRunner;

ClientNotebookKernel::ClientNotebookKernel(client::CodeInterpreter* interpreter,
                                           ClientCodeRunner* runner, QObject* parent)
    : NotebookKernel(parent), m_interpreterObject(interpreter), m_interpreter(interpreter),
      m_runner(runner)
{
    interpreter->setParent(this);
    connect(runner, &ClientCodeRunner::kernelStateChanged, this,
            [this](client::KernelState s) { emit stateChanged(client::kernelStateName(s)); });
    connect(runner, &ClientCodeRunner::noticeReceived, this, &NotebookKernel::notice);
    connect(runner, &ClientCodeRunner::outputCleared, this, [this](bool) { emit outputCleared(); });
}

ClientNotebookKernel::~ClientNotebookKernel() = default;

ContextChoice ClientNotebookKernel::context() const
{
    if (!m_runner)
        return {};
    return {m_runner->contextId(), m_runner->language(), m_cwd};
}

QString ClientNotebookKernel::state() const
{
    return m_runner ? client::kernelStateName(m_runner->kernelState()) : QStringLiteral("unknown");
}

void ClientNotebookKernel::listContexts(ListDone done)
{
    if (!interpreter()) {
        done({}, QStringLiteral("not connected"));
        return;
    }
    m_interpreter->listContexts(this, [done](client::Outcome<QList<client::CodeContext>> result) {
        if (!result) {
            done({}, result.error().message);
            return;
        }
        QList<ContextChoice> list;
        for (const client::CodeContext& c : result.value())
            list.append({c.id, c.language, c.cwd});
        done(list, {});
    });
}

void ClientNotebookKernel::createContext(const QString& language, ContextDone done)
{
    if (!interpreter()) {
        done({}, QStringLiteral("not connected"));
        return;
    }
    m_interpreter->createContext(
        language, QString(), this, [done](client::Outcome<client::CodeContext> result) {
            if (!result)
                done({}, result.error().message);
            else
                done({result.value().id, result.value().language, result.value().cwd}, {});
        });
}

void ClientNotebookKernel::selectContext(const ContextChoice& context)
{
    if (!m_runner)
        return;
    m_runner->setContext(context.id, context.language);
    m_cwd = context.cwd;
    emit contextChanged();
    emit stateChanged(state());
}

void ClientNotebookKernel::startKernel()
{
    if (m_runner && interpreter())
        m_runner->startKernel();
}

void ClientNotebookKernel::restart(Done done)
{
    if (!m_runner || !interpreter()) {
        done(QStringLiteral("not connected"));
        return;
    }
    m_runner->restart([done](QString error) { done(error); });
}

void ClientNotebookKernel::detach()
{
    if (m_runner)
        m_runner->setInterpreter(nullptr);
    delete m_interpreterObject.data();
    m_interpreter = nullptr;
    emit notice(
        QStringLiteral("Disconnected from the server: cells run again once the app is connected"));
}

void ClientNotebookKernel::setInterpreter(client::CodeInterpreter* interpreter)
{
    if (m_runner)
        m_runner->setInterpreter(nullptr);
    delete m_interpreterObject.data();
    interpreter->setParent(this);
    m_interpreterObject = interpreter;
    m_interpreter = interpreter;
    if (m_runner)
        m_runner->setInterpreter(interpreter);
}

void ClientNotebookKernel::rebind(client::CodeInterpreter* interpreter)
{
    setInterpreter(interpreter);
    if (m_runner)
        m_runner->setContext(QString(), m_runner->language());
    m_cwd.clear();
    emit contextChanged();
    emit stateChanged(state());
}

void ClientNotebookKernel::attach(client::CodeInterpreter* interpreter)
{
    setInterpreter(interpreter);
    emit notice(QStringLiteral("Connected again: cells run on the same context"));
    emit stateChanged(state());
}

} // namespace lizard::notebook
