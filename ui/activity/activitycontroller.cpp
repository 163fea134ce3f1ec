#include "ui/activity/activitycontroller.h"

#include "models/activity/activitypulse.h"
#include "models/sandboxtablemodel.h"
#include "notebook/celldata.h"
#include "notebook/notebookdocument.h"
#include "notebook/notebookkernel.h"
#include "ui/activity/activebadgedelegate.h"
#include "ui/activity/activitypanel.h"
#include "ui/notebook/notebookcontroller.h"
#include "ui/notebook/notebookpage.h"
#include "ui/workbench.h"

namespace lizard::ui::activity {

ActivityController::ActivityController(Workbench* window, notebook::NotebookController* notebooks,
                                       QObject* parent)
    : QObject(parent), m_window(window), m_notebooks(notebooks), m_panel(new ActivityPanel),
      m_pulse(new models::ActivityPulse(this))
{
    // The "active now" badge before each sandbox id in the list.
    window->setSandboxIdDelegate(
        new ActiveBadgeDelegate(m_pulse, models::SandboxTableModel::SandboxIdRole));
    connect(m_pulse, &models::ActivityPulse::changed, window, &Workbench::updateSandboxList);
    m_pulse->setApi(window->api());
    updatePulseSandboxes();
    m_panel->setObjectName(QStringLiteral("activityPanel"));
    window->addToolTab(m_panel, tr("Activity"));
    m_panel->setApi(window->api());
    m_panel->showSandbox(window->currentSandboxId());
    connect(window, &Workbench::backendChanged, this, [this] {
        m_pulse->setApi(m_window->api());
        updatePulseSandboxes();
        m_panel->setApi(m_window->api());
        m_panel->showSandbox(m_window->currentSandboxId());
    });
    connect(window, &Workbench::currentSandboxChanged, m_panel, &ActivityPanel::showSandbox);
    connect(m_panel, &ActivityPanel::errorOccurred, window, &Workbench::showError);
    connect(m_panel, &ActivityPanel::message, window, &Workbench::showInfo);
    connect(m_panel, &ActivityPanel::openNotebookRequested, this,
            &ActivityController::openNotebook);
    connect(m_panel, &ActivityPanel::showFileRequested, window, &Workbench::showFile);
    connect(m_panel, &ActivityPanel::showChangesRequested, window, &Workbench::showChangesBetween);
}

void ActivityController::openNotebook(const QString& sandboxId,
                                      const lizard::notebook::NotebookData& data,
                                      const QString& contextId, const QString& language)
{
    if (!m_notebooks)
        return;
    notebook::NotebookPage* page = m_notebooks->openNotebook(sandboxId);
    if (page == nullptr)
        return;
    // The runs as they were (with their outputs), unsaved; new cells run in the agent's
    // context, where its variables are. A runner default context has no id of its own.
    page->document()->reset(data, true);
    const QString id = contextId.startsWith(QStringLiteral("default-")) ? QString() : contextId;
    page->session()->kernel()->selectContext(
        lizard::notebook::ContextChoice{id, language, QString()});
    emit notebookOpened(page);
}

void ActivityController::updatePulseSandboxes()
{
    QStringList ids;
    if (QAbstractItemModel* model = m_window->sandboxes()) {
        for (int row = 0; row < model->rowCount(); ++row)
            ids << model->index(row, 0).data(models::SandboxTableModel::SandboxIdRole).toString();
        // Follows the list as it refreshes (rows come and go).
        if (!model->property("lizardPulseConnected").toBool()) {
            model->setProperty("lizardPulseConnected", true);
            for (auto signal :
                 {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
                connect(model, signal, this, &ActivityController::updatePulseSandboxes);
            connect(model, &QAbstractItemModel::modelReset, this,
                    &ActivityController::updatePulseSandboxes);
        }
    }
    m_pulse->setSandboxes(ids);
}

} // namespace lizard::ui::activity
