#include "ui/notebook/sandboxswitcher.h"

#include "client/coderun/codeinterpreter.h"
#include "models/sandboxtablemodel.h"
#include "models/serveraccount.h"
#include "notebook/clientnotebookkernel.h"
#include "notebook/notebooklauncher.h"
#include "notebook/runqueue.h"
#include "ui/notebook/attachsandboxdialog.h"
#include "ui/notebook/celllistwidget.h"
#include "ui/notebook/notebookpage.h"
#include "ui/progressstrip.h"
#include "ui/sandboxpanel.h"
#include "ui/workbench.h"

#include <QAction>

namespace lizard::ui::notebook {

using lizard::notebook::ClientNotebookKernel;
using lizard::notebook::NotebookLauncher;

SandboxSwitcher::SandboxSwitcher(Workbench* window, QObject* parent)
    : QObject(parent), m_window(window)
{
}

bool SandboxSwitcher::autoExtendFor(const client::LizardApi* api) const
{
    return models::isLocalServer(api) ? m_autoExtendLocal : m_autoExtendCloud;
}

void SandboxSwitcher::setAutoExtendPolicy(bool local, bool cloud)
{
    m_autoExtendLocal = local;
    m_autoExtendCloud = cloud;
    const bool on = autoExtendFor(m_window->api());
    for (DocumentPage* document : m_window->documents()) {
        if (auto* page = qobject_cast<NotebookPage*>(document))
            page->session()->setAutoExtend(on);
    }
}

void SandboxSwitcher::adopt(NotebookPage* page)
{
    connect(page, &NotebookPage::attachRequested, this, [this, page] { attachInteractive(page); });
    connect(page, &NotebookPage::runOnNewRequested, this,
            [this, page](bool thenRunAll) { runOnNewSandbox(page, thenRunAll); });
    page->session()->setAutoExtend(autoExtendFor(m_window->api()));
    page->session()->setApi(m_window->api());
}

void SandboxSwitcher::connectionChanged(client::LizardApi* api, const QList<NotebookPage*>& pages)
{
    for (NotebookPage* page : pages) {
        page->session()->setAutoExtend(autoExtendFor(api));
        page->session()->setApi(api);
    }
}

AttachSandboxDialog* SandboxSwitcher::attachInteractive(NotebookPage* page)
{
    const QString projectId =
        m_window->sandboxes() ? m_window->sandboxes()->projectId() : QString();
    if (!m_window->api() || projectId.isEmpty()) {
        m_window->showProblem(
            QStringLiteral("Attach to sandbox: connect and select a project first"));
        return nullptr;
    }
    auto* dialog = new AttachSandboxDialog(m_window->sandboxActions(), projectId, page->sandboxId(),
                                           m_window->window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog, page = QPointer<NotebookPage>(page)] {
        if (page && !dialog->selectedSandboxId().isEmpty())
            attach(page, dialog->selectedSandboxId());
    });
    dialog->open();
    return dialog;
}

void SandboxSwitcher::attach(NotebookPage* page, const QString& sandboxId)
{
    auto* kernel = qobject_cast<ClientNotebookKernel*>(page->session()->kernel());
    if (!kernel || !m_window->api()) {
        m_window->showProblem(QStringLiteral("Attach to sandbox: not connected"));
        return;
    }
    page->session()->runQueue()->interrupt();
    auto* interpreter = new client::CodeInterpreter(m_window->api(), sandboxId);
    kernel->rebind(interpreter);
    page->session()->setSandboxId(sandboxId);
    interpreter->warmUp(); // the fast path, ready for the next cell
    emit attached(page, sandboxId);
}

NotebookLauncher* SandboxSwitcher::launcherFor(NotebookPage* page) const
{
    for (const auto& [p, launcher] : m_launchers) {
        if (p == page && launcher)
            return launcher;
    }
    return nullptr;
}

void SandboxSwitcher::runOnNewSandbox(NotebookPage* page, bool thenRunAll)
{
    if (launcherFor(page)) {
        m_window->showInfo(QStringLiteral("A new sandbox for this notebook is already starting"));
        return;
    }
    const QString projectId =
        m_window->sandboxes() ? m_window->sandboxes()->projectId() : QString();
    if (!m_window->api() || projectId.isEmpty()) {
        m_window->showProblem(
            QStringLiteral("Run on a new sandbox: connect and select a project first"));
        return;
    }
    auto* launcher = new NotebookLauncher(m_window->api(), projectId, m_lifetimeMinutes, this);
    launcher->setSandboxKind(page->session()->sandboxTemplate(), page->session()->sandboxSize());
    launcher->setLabel(QStringLiteral("Run on a new sandbox"));
    m_launchers.removeIf([](const auto& entry) { return !entry.first || !entry.second; });
    m_launchers.append({page, launcher});
    auto* strip = new ProgressStrip;
    m_window->addStrip(strip);
    connect(launcher, &QObject::destroyed, strip, &QObject::deleteLater);
    connect(strip, &ProgressStrip::cancelRequested, launcher, [launcher, strip] {
        strip->setCancelling(QStringLiteral("Cancelling: removing the new sandbox…"));
        launcher->cancel();
    });
    connect(launcher, &NotebookLauncher::stageChanged, strip,
            [strip](NotebookLauncher::Stage stage) {
                strip->setStage(int(stage), NotebookLauncher::kStages,
                                NotebookLauncher::stageText(stage));
            });
    connect(launcher, &NotebookLauncher::sandboxCreated, this,
            [this](const client::SandboxInfo& info) { m_window->showNewSandbox(info); });
    connect(launcher, &NotebookLauncher::ready, this,
            [this, page = QPointer<NotebookPage>(page), thenRunAll](const QString& sandboxId) {
                if (!page) // closed meanwhile: the sandbox stays, listed in the table
                    return;
                attach(page, sandboxId);
                if (thenRunAll)
                    page->cells()->runAll();
            });
    connect(launcher, &NotebookLauncher::failed, this, [this](const QString& message) {
        if (models::SandboxTableModel* model = m_window->sandboxes())
            model->refresh();
        m_window->showProblem(message);
        emit runOnNewFailed(message);
    });
    connect(launcher, &NotebookLauncher::cancelled, this,
            [this] { m_window->showInfo(QStringLiteral("Run on a new sandbox cancelled")); });
    launcher->start();
}

} // namespace lizard::ui::notebook
