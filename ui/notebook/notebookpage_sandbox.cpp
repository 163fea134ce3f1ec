// NotebookPage and its sandbox: the header's watch and actions, and what follows a move to
// another sandbox (the session moves; the page shows it).
#include "models/sandboxtablemodel.h"
#include "notebook/sandboxwatch.h"
#include "ui/notebook/contextselector.h"
#include "ui/notebook/notebookheader.h"
#include "ui/notebook/notebookpage.h"
#include "ui/theme/icontheme.h"

#include <QAction>

namespace lizard::ui::notebook {

void NotebookPage::setUpSandboxActions()
{
    m_header->setWatch(m_session->sandboxWatch());

    m_attachAction = new QAction(IconTheme::icon(QStringLiteral("insert-link")),
                                 QStringLiteral("Attach to sandbox…"), this);
    m_attachAction->setObjectName(QStringLiteral("attachToSandbox"));
    m_attachAction->setToolTip(
        QStringLiteral("Run this notebook in another running sandbox of the project"));
    connect(m_attachAction, &QAction::triggered, this, &NotebookPage::attachRequested);
    m_runOnNewAction = new QAction(IconTheme::icon(QStringLiteral("lizard-run-new")),
                                   QStringLiteral("Run on a new sandbox"), this);
    m_runOnNewAction->setObjectName(QStringLiteral("runOnNewSandbox"));
    m_runOnNewAction->setToolTip(QStringLiteral(
        "Create a sandbox from this notebook's template and size and run the notebook there"));
    connect(m_runOnNewAction, &QAction::triggered, this,
            [this] { emit runOnNewRequested(m_thenRunAll->isChecked()); });
    m_thenRunAll = new QAction(IconTheme::icon(QStringLiteral("lizard-run-all")),
                               QStringLiteral("then Run all"), this);
    m_thenRunAll->setObjectName(QStringLiteral("thenRunAll"));
    m_thenRunAll->setCheckable(true);
    m_thenRunAll->setToolTip(
        QStringLiteral("After moving to a new sandbox, run every cell again (variables start "
                       "empty there)"));
    m_header->setSandboxActions(m_attachAction, m_runOnNewAction, m_thenRunAll);
}

void NotebookPage::setSandboxModel(models::SandboxTableModel* model)
{
    m_sandboxModel = model;
}

void NotebookPage::showSandbox()
{
    m_header->setSandboxId(sandboxId());
    updateContextLabel();
    if (m_contexts)
        m_contexts->refresh();
    if (m_sandboxModel)
        m_sandboxModel->refresh();
    emit titleChanged(); // the tooltip names the sandbox
}

} // namespace lizard::ui::notebook
