#include "notebook/notebooksession.h"

#include "notebook/cell.h"
#include "notebook/clientcoderunner.h"
#include "notebook/coderunner.h"
#include "notebook/notebookdocument.h"
#include "notebook/notebookfile.h"
#include "notebook/recoverywatcher.h"
#include "notebook/runqueue.h"
#include "notebook/sandboxwatch.h"

#include <QFileInfo>

namespace lizard::notebook {

namespace {
int g_untitled = 0;
constexpr const char* kDefaultTemplate = "interpreter";

std::string lizardMeta(const NotebookDocument* document, const char* key)
{
    return document->metadata().value("lizard", nlohmann::json::object()).value(key, std::string());
}
} // namespace

NotebookSession::NotebookSession(const QString& sandboxId, CodeRunner* runner,
                                 NotebookKernel* kernel, QObject* parent)
    : QObject(parent), m_sandboxId(sandboxId),
      m_untitled(QStringLiteral("Untitled-%1.ipynb").arg(++g_untitled)),
      m_document(new NotebookDocument(this)), m_file(new NotebookFile(m_document, this)),
      m_runner(runner), m_kernel(kernel), m_queue(new RunQueue(m_document, runner, this)),
      m_watch(new SandboxWatch(this))
{
    runner->setParent(this);
    if (kernel)
        kernel->setParent(this);
    m_document->insertCell(0, CellType::Code);

    connect(m_document, &NotebookDocument::dirtyChanged, this, &NotebookSession::titleChanged);
    connect(m_file, &NotebookFile::pathChanged, this, &NotebookSession::titleChanged);
    connect(m_queue, &RunQueue::busyChanged, this, &NotebookSession::updateKernelState);
    if (m_kernel) {
        connect(m_kernel, &NotebookKernel::stateChanged, this, &NotebookSession::updateKernelState);
        connect(m_kernel, &NotebookKernel::contextChanged, this, [this] {
            syncContextMetadata();
            emit contextChanged();
        });
        connect(m_kernel, &NotebookKernel::notice, this, &NotebookSession::notice);
        connect(m_kernel, &NotebookKernel::outputCleared, this, [this] {
            if (Cell* cell = m_queue->currentCell())
                cell->clearOutputs();
        });
    }
    bindSandbox();
    syncContextMetadata();
    m_kernelState = kernelState();
    m_document->setClean(); // a fresh notebook has nothing to save yet
}

NotebookSession::~NotebookSession()
{
    // Before the document goes (it is an earlier child): the watcher writes what changed since
    // its last copy, in the background.
    delete m_recovery;
}

QString NotebookSession::displayName() const
{
    QString name = m_file->path().isEmpty() ? m_untitled : QFileInfo(m_file->path()).fileName();
    if (!m_branchOf.isEmpty() && m_file->path().isEmpty())
        name = QStringLiteral("%1 (branch of %2)").arg(name, m_branchOf);
    return name;
}

void NotebookSession::setBranchOf(const QString& originalTitle)
{
    m_branchOf = originalTitle;
    emit titleChanged();
}

MaybeError NotebookSession::open(const QString& path)
{
    return m_file->open(path);
}

void NotebookSession::openInBackground(const QString& path, std::function<void(MaybeError)> done)
{
    m_file->openInBackground(path, std::move(done));
}

MaybeError NotebookSession::save()
{
    return m_file->save();
}

MaybeError NotebookSession::saveAs(const QString& path)
{
    return m_file->saveAs(path);
}

void NotebookSession::enableRecovery(const RecoveryStore& store, int intervalMs)
{
    delete m_recovery;
    m_recovery = new RecoveryWatcher(store, m_file, this);
    m_recovery->setInterval(intervalMs);
    connect(m_recovery, &RecoveryWatcher::writeFailed, this, [this](const NotebookError& error) {
        emit notice(QStringLiteral("Autosave failed: %1").arg(error.message()));
    });
}

void NotebookSession::close()
{
    m_queue->interrupt();
    if (m_recovery)
        m_recovery->close();
}

void NotebookSession::bindSandbox()
{
    m_watch->setSandbox(m_sandboxId);
    watchCells();
    connect(m_document, &NotebookDocument::documentReset, this, &NotebookSession::watchCells);
    connect(m_document, &NotebookDocument::cellInserted, this, [this](int index) {
        connect(m_document->cell(index), &Cell::sourceChanged, m_watch, &SandboxWatch::noteActivity,
                Qt::UniqueConnection);
    });
    connect(m_queue, &RunQueue::busyChanged, m_watch, &SandboxWatch::setBusy);
    connect(m_watch, &SandboxWatch::changed, this, &NotebookSession::rememberSandboxInfo);
    connect(m_watch, &SandboxWatch::resuming, this,
            [this] { emit notice(QStringLiteral("Sandbox was paused; resuming…")); });
    if (auto* runner = qobject_cast<ClientCodeRunner*>(m_runner)) {
        runner->setRunGate(
            [watch = QPointer<SandboxWatch>(m_watch)](std::function<void(QString)> proceed) {
                if (watch)
                    watch->ensureRunning(std::move(proceed));
                else
                    proceed({});
            });
        // A run that failed may be the first sign that the sandbox is gone.
        connect(runner, &CodeRunner::failed, m_watch, [this] { m_watch->checkNow(); });
    }
}

void NotebookSession::watchCells()
{
    // In use: a cell edited (its source) or running.
    for (int i = 0; i < m_document->cellCount(); ++i)
        connect(m_document->cell(i), &Cell::sourceChanged, m_watch, &SandboxWatch::noteActivity,
                Qt::UniqueConnection);
}

void NotebookSession::setApi(client::LizardApi* api)
{
    m_watch->setApi(api);
}

void NotebookSession::setAutoExtend(bool on)
{
    m_watch->setAutoExtend(on);
}

void NotebookSession::setSandboxId(const QString& sandboxId)
{
    if (sandboxId == m_sandboxId)
        return;
    m_sandboxId = sandboxId;
    m_watch->setSandbox(sandboxId);
    syncContextMetadata(); // the metadata names the new sandbox
    emit sandboxChanged(sandboxId);
    emit notice(QStringLiteral("Now running on sandbox %1: variables start empty").arg(sandboxId));
}

void NotebookSession::rememberSandboxInfo()
{
    if (m_watch->templateName().isEmpty() || !lizardMeta(m_document, "template").empty())
        return;
    nlohmann::json meta = m_document->metadata();
    meta["lizard"]["template"] = m_watch->templateName().toStdString();
    if (!m_watch->size().isEmpty())
        meta["lizard"]["size"] = m_watch->size().toStdString();
    // What the sandbox was made from is not an edit of the user's: a notebook that was clean
    // stays so (the next save carries it).
    const bool wasClean = !m_document->isDirty();
    m_document->setMetadata(meta);
    if (wasClean)
        m_document->setClean();
}

QString NotebookSession::sandboxTemplate() const
{
    const std::string stored = lizardMeta(m_document, "template");
    if (!stored.empty())
        return QString::fromStdString(stored);
    return m_watch->templateName().isEmpty() ? QString::fromLatin1(kDefaultTemplate)
                                             : m_watch->templateName();
}

QString NotebookSession::sandboxSize() const
{
    const std::string stored = lizardMeta(m_document, "size");
    return stored.empty() ? m_watch->size() : QString::fromStdString(stored);
}

QString NotebookSession::kernelState() const
{
    QString state = m_kernel ? m_kernel->state() : QStringLiteral("idle");
    if (m_queue->isBusy() && state != u"dead" && state != u"starting")
        state = QStringLiteral("busy");
    else if (!m_queue->isBusy() && state == u"busy")
        state = QStringLiteral("idle");
    return state;
}

void NotebookSession::updateKernelState()
{
    const QString state = kernelState();
    if (state == m_kernelState)
        return;
    m_kernelState = state;
    emit kernelStateChanged(state);
}

ContextChoice NotebookSession::context() const
{
    return m_kernel ? m_kernel->context() : ContextChoice{QString(), QStringLiteral("python"), {}};
}

void NotebookSession::syncContextMetadata()
{
    // Say in the file which language its cells are (JupyterLab picks its kernel by this) and
    // which sandbox they ran in.
    nlohmann::json meta = m_document->metadata();
    const std::string language = context().language.toStdString();
    bool changed = false;
    if (meta.value("language_info", nlohmann::json::object()).value("name", std::string()) !=
        language) {
        meta["language_info"]["name"] = language;
        if (language == "python")
            meta["kernelspec"] = {
                {"name", "python3"}, {"display_name", "Python 3"}, {"language", "python"}};
        changed = true;
    }
    if (meta.value("lizard", nlohmann::json::object()).value("sandboxId", std::string()) !=
        m_sandboxId.toStdString()) {
        meta["lizard"]["sandboxId"] = m_sandboxId.toStdString();
        changed = true;
    }
    if (changed)
        m_document->setMetadata(meta);
}

void NotebookSession::interrupt()
{
    m_queue->interrupt();
}

void NotebookSession::restartKernel()
{
    if (!m_kernel)
        return;
    m_queue->interrupt();
    emit notice(QStringLiteral("Restarting the kernel…"));
    m_kernel->restart([self = QPointer<NotebookSession>(this)](QString error) {
        if (self)
            emit self->notice(error.isEmpty() ? QStringLiteral("Restarted: variables are gone")
                                              : QStringLiteral("Restart failed: %1").arg(error));
    });
}

void NotebookSession::clearOutputs()
{
    for (int i = 0; i < m_document->cellCount(); ++i)
        m_document->cell(i)->clearOutputs();
}

void NotebookSession::reportContextError(const QString& message)
{
    // "Listing contexts failed: sandbox … not found" says less than the sandbox's own notice:
    // ask the server first, and tell the error only when the sandbox is still there.
    m_watch->checkNow([self = QPointer<NotebookSession>(this), message] {
        if (self && self->m_watch->state() != SandboxWatch::State::Ended)
            emit self->notice(message);
    });
}

} // namespace lizard::notebook
