// NotebookPage and its sandbox: watching it, resuming it before a run, moving to another one.
#include "models/sandboxtablemodel.h"
#include "notebook/sandboxwatch.h"
#include "notebook/cell.h"
#include "notebook/clientcoderunner.h"
#include "notebook/runqueue.h"
#include "ui/notebook/contextselector.h"
#include "ui/notebook/notebookheader.h"
#include "ui/notebook/notebookpage.h"

#include <QAction>

namespace lizard::ui::notebook {

using lizard::notebook::SandboxWatch;

using namespace lizard::notebook;

namespace {
constexpr const char* kDefaultTemplate = "interpreter";

std::string lizardMeta(const NotebookDocument* document, const char* key)
{
    return document->metadata().value("lizard", nlohmann::json::object()).value(key, std::string());
}
} // namespace

void NotebookPage::setUpSandbox()
{
    m_watch = new SandboxWatch(this);
    m_watch->setSandbox(m_sandboxId);
    m_header->setWatch(m_watch);

    m_attachAction = new QAction(QStringLiteral("Attach to sandbox…"), this);
    m_attachAction->setObjectName(QStringLiteral("attachToSandbox"));
    m_attachAction->setToolTip(
        QStringLiteral("Run this notebook in another running sandbox of the project"));
    connect(m_attachAction, &QAction::triggered, this, &NotebookPage::attachRequested);
    m_runOnNewAction = new QAction(QStringLiteral("Run on a new sandbox"), this);
    m_runOnNewAction->setObjectName(QStringLiteral("runOnNewSandbox"));
    m_runOnNewAction->setToolTip(QStringLiteral(
        "Create a sandbox from this notebook's template and size and run the notebook there"));
    connect(m_runOnNewAction, &QAction::triggered, this,
            [this] { emit runOnNewRequested(m_thenRunAll->isChecked()); });
    m_thenRunAll = new QAction(QStringLiteral("then Run all"), this);
    m_thenRunAll->setObjectName(QStringLiteral("thenRunAll"));
    m_thenRunAll->setCheckable(true);
    m_thenRunAll->setToolTip(
        QStringLiteral("After moving to a new sandbox, run every cell again (variables start "
                       "empty there)"));
    m_header->setSandboxActions(m_attachAction, m_runOnNewAction, m_thenRunAll);

    // In use: a cell edited (its source) or running.
    const auto watchCell = [this](Cell* cell) {
        connect(cell, &Cell::sourceChanged, m_watch, &SandboxWatch::noteActivity,
                Qt::UniqueConnection);
    };
    for (int i = 0; i < m_document->cellCount(); ++i)
        watchCell(m_document->cell(i));
    connect(m_document, &NotebookDocument::cellInserted, this,
            [this, watchCell](int index) { watchCell(m_document->cell(index)); });
    connect(m_document, &NotebookDocument::documentReset, this, [this, watchCell] {
        for (int i = 0; i < m_document->cellCount(); ++i)
            watchCell(m_document->cell(i));
    });
    connect(m_queue, &RunQueue::busyChanged, m_watch, &SandboxWatch::setBusy);

    connect(m_watch, &SandboxWatch::changed, this, &NotebookPage::rememberSandboxInfo);
    connect(m_watch, &SandboxWatch::resuming, this,
            [this] { m_header->setNotice(QStringLiteral("Sandbox was paused; resuming…")); });
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

void NotebookPage::setApi(client::LizardApi* api)
{
    m_watch->setApi(api);
}

void NotebookPage::setAutoExtend(bool on)
{
    m_watch->setAutoExtend(on);
}

void NotebookPage::setSandboxModel(models::SandboxTableModel* model)
{
    m_sandboxModel = model;
}

void NotebookPage::showContextError(const QString& message)
{
    // "Listing contexts failed: sandbox … not found" says less than the header's banner: ask the
    // server first, and show the error only when the sandbox is still there.
    m_watch->checkNow([self = QPointer<NotebookPage>(this), message] {
        if (self && self->m_watch->state() != SandboxWatch::State::Ended)
            self->m_header->setNotice(message);
    });
}

void NotebookPage::rememberSandboxInfo()
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

QString NotebookPage::sandboxTemplate() const
{
    const std::string stored = lizardMeta(m_document, "template");
    if (!stored.empty())
        return QString::fromStdString(stored);
    return m_watch->templateName().isEmpty() ? QString::fromLatin1(kDefaultTemplate)
                                             : m_watch->templateName();
}

QString NotebookPage::sandboxSize() const
{
    const std::string stored = lizardMeta(m_document, "size");
    return stored.empty() ? m_watch->size() : QString::fromStdString(stored);
}

void NotebookPage::setSandboxId(const QString& sandboxId)
{
    if (sandboxId == m_sandboxId)
        return;
    m_sandboxId = sandboxId;
    m_header->setSandboxId(sandboxId);
    m_watch->setSandbox(sandboxId);
    updateContextLabel(); // the metadata names the new sandbox
    if (m_contexts)
        m_contexts->refresh();
    m_header->setNotice(
        QStringLiteral("Now running on sandbox %1: variables start empty").arg(sandboxId));
    if (m_sandboxModel)
        m_sandboxModel->refresh();
    emit titleChanged(); // the tooltip names the sandbox
}

} // namespace lizard::ui::notebook
