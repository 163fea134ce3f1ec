#include "notebook/notebooklauncher.h"

#include "client/coderun/codeinterpreter.h"
#include "client/coderun/coderun.h"
#include "client/lizardapi.h"

namespace lizard::notebook {

NotebookLauncher::NotebookLauncher(client::LizardApi* api, const QString& projectId,
                                   int lifetimeMinutes, QObject* parent)
    : QObject(parent), m_api(api), m_projectId(projectId), m_lifetimeMinutes(lifetimeMinutes)
{
}

QString NotebookLauncher::stageText(Stage stage)
{
    return stage == Stage::CreatingSandbox ? QStringLiteral("Creating sandbox…")
                                           : QStringLiteral("Starting Python…");
}

void NotebookLauncher::setSandboxKind(const QString& templateName, const QString& size)
{
    m_template = templateName.isEmpty() ? QStringLiteral("interpreter") : templateName;
    m_size = size;
}

void NotebookLauncher::start()
{
    if (!m_api) {
        emit failed(m_label + QStringLiteral(": not connected"));
        end();
        return;
    }
    client::CreateSandboxRequest request;
    request.projectId = m_projectId;
    request.templateName = m_template;
    request.size = m_size;
    request.timeoutMs = qint64(m_lifetimeMinutes) * 60000;
    request.metadata.insert(QStringLiteral("purpose"), QStringLiteral("notebook"));
    emit stageChanged(Stage::CreatingSandbox);
    // The create is never cancelled on the wire: the server may make the sandbox anyway, and
    // only its answer says which one to kill.
    m_creating = true;
    m_api->createSandbox(
        request, nullptr,
        [self = QPointer<NotebookLauncher>(this)](client::Outcome<client::SandboxInfo> outcome) {
            if (self) // gone only with the app; the sandbox's lifetime ends it
                self->onCreated(std::move(outcome));
        });
}

void NotebookLauncher::onCreated(client::Outcome<client::SandboxInfo> outcome)
{
    m_creating = false;
    if (!outcome) {
        if (m_cancelling) {
            emit cancelled();
        } else {
            client::ApiError error = outcome.error();
            error.what =
                QStringLiteral("%1: create a%2 %3 sandbox")
                    .arg(m_label, m_template.startsWith(u'i') ? QStringLiteral("n") : QString(),
                         m_template);
            emit failed(error.toDisplayString());
        }
        end();
        return;
    }
    m_sandboxId = outcome.value().sandboxId;
    if (m_cancelling) {
        killAndEnd({});
        return;
    }
    emit sandboxCreated(outcome.value());
    // No Jupyter kernel to start in other templates; and a warm copy of the interpreter template
    // has its kernel running already (lizard-local pre-starts it; should that have failed, the
    // notebook's first run starts one).
    if (m_template != u"interpreter" || outcome.value().fromPool) {
        emit ready(m_sandboxId);
        end();
        return;
    }
    startPython();
}

void NotebookLauncher::startPython()
{
    emit stageChanged(Stage::StartingPython);
    // Its own interpreter, one exec per request: the notebook page makes its own (with the warm
    // path) on the kernel this run leaves running in the sandbox.
    m_interpreter = new client::CodeInterpreter(m_api, m_sandboxId, this);
    m_interpreter->setFastPathEnabled(false);
    client::RunCodeOptions options;
    options.timeoutS = 120;
    // Empty code starts the kernel without using an execution count.
    client::CodeRun* run = m_interpreter->runCode(QString(), options);
    connect(run, &client::CodeRun::finished, this, [this](const client::Execution& execution) {
        if (execution.error) {
            killAndEnd(
                QStringLiteral("%1: Python did not start in sandbox %2: %3: %4")
                    .arg(m_label, m_sandboxId, execution.error->name, execution.error->message));
            return;
        }
        emit ready(m_sandboxId);
        end();
    });
    connect(run, &client::CodeRun::failed, this, [this](const client::ApiError& error) {
        client::ApiError e = error;
        e.what = QStringLiteral("%1: start Python in sandbox %2").arg(m_label, m_sandboxId);
        killAndEnd(e.toDisplayString());
    });
}

void NotebookLauncher::cancel()
{
    if (m_cancelling || m_ended)
        return;
    m_cancelling = true;
    if (m_creating) // the answer names the sandbox to kill (onCreated)
        return;
    killAndEnd({});
}

void NotebookLauncher::killAndEnd(const QString& why)
{
    // Possibly called from its run's signal: stop listening now, delete later. The sandbox's
    // end stops the run itself.
    if (m_interpreter) {
        for (client::CodeRun* run : m_interpreter->findChildren<client::CodeRun*>())
            run->disconnect(this);
        m_interpreter->deleteLater();
        m_interpreter = nullptr;
    }
    if (!m_api || m_sandboxId.isEmpty()) {
        why.isEmpty() ? emit cancelled() : emit failed(why);
        end();
        return;
    }
    m_api->killSandbox(m_sandboxId, this, [this, why](client::Outcome<client::Unit> outcome) {
        QString message = why;
        // 404: it is gone already, which is what we wanted.
        if (!outcome && outcome.error().kind != client::ApiError::Kind::NotFound) {
            const QString left =
                QStringLiteral("sandbox %1 could not be killed and is still there: %2")
                    .arg(m_sandboxId, outcome.error().toDisplayString());
            message = message.isEmpty() ? m_label + QStringLiteral(" cancelled, but ") + left
                                        : message + QStringLiteral("; ") + left;
        }
        message.isEmpty() ? emit cancelled() : emit failed(message);
        end();
    });
}

void NotebookLauncher::end()
{
    m_ended = true;
    deleteLater();
}

} // namespace lizard::notebook
