#include "notebook/notebookforker.h"

#include "client/coderun/codeinterpreter.h"
#include "client/lizardapi.h"
#include "notebook/clientnotebookkernel.h"
#include "notebook/notebooksession.h"

namespace lizard::notebook {

NotebookForker::NotebookForker(client::LizardApi* api, NotebookSession* source, QObject* parent)
    : QObject(parent), m_api(api), m_source(source)
{
}

void NotebookForker::start()
{
    auto* kernel = m_source ? qobject_cast<ClientNotebookKernel*>(m_source->kernel()) : nullptr;
    client::CodeInterpreter* interpreter = kernel ? kernel->interpreter() : nullptr;
    if (!m_api || !interpreter) {
        fail(QStringLiteral("this notebook is not connected to a sandbox"));
        return;
    }
    emit progress(QStringLiteral("Saving the notebook's variables…"));
    // Against lizard-local its pre-snapshot hook would save them too; the cloud runs no hook.
    interpreter->saveAllVariables(this,
                                  [this](client::Outcome<QList<client::ContextVariables>> saved) {
                                      if (!saved)
                                          m_saveNote = QStringLiteral(" (variables not saved: %1)")
                                                           .arg(saved.error().toDisplayString());
                                      fork();
                                  });
}

void NotebookForker::fork()
{
    if (!m_api || !m_source) {
        fail(QStringLiteral("the notebook was closed"));
        return;
    }
    emit progress(QStringLiteral("Forking sandbox %1…").arg(m_source->sandboxId()));
    m_api->forkSandbox(
        m_source->sandboxId(), 1, 0, this, [this](client::Outcome<QList<client::ForkEntry>> out) {
            if (!out) {
                fail(out.error().toDisplayString());
                return;
            }
            if (out.value().isEmpty() || !out.value().first().sandbox) {
                fail(out.value().isEmpty() ? QStringLiteral("the server made no copy")
                                           : out.value().first().error);
                return;
            }
            const QString sandboxId = out.value().first().sandbox->sandboxId;
            emit progress(QStringLiteral("Forked into %1%2").arg(sandboxId, m_saveNote));
            emit forked(sandboxId, m_saveNote);
            deleteLater();
        });
}

void NotebookForker::fail(const QString& message)
{
    emit failed(QStringLiteral("Fork notebook failed: %1").arg(message));
    deleteLater();
}

} // namespace lizard::notebook
