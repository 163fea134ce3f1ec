#include "ui/templates/templatesview.h"

#include "models/sandboxactions.h"
#include "models/sandboxstaterules.h"
#include "models/templates/templatelistmodel.h"
#include "ui/templates/recipedialog.h"
#include "ui/theme/icontheme.h"

#include <QAction>
#include <QMenu>
#include <QMessageBox>
#include <QTableView>
#include <QToolBar>

namespace lizard::ui {

using models::TemplateListModel;

TemplatesView::TemplatesView(QWidget* parent)
    : ProjectTableView(QStringLiteral("templateTable"), QStringLiteral("No templates listed yet."),
                       parent)
{
    m_new = toolBar()->addAction(IconTheme::icon(QStringLiteral("list-add")),
                                 QStringLiteral("New template…"));
    m_new->setToolTip(QStringLiteral("Write a recipe (packages, files, commands) and build a "
                                     "template of your own from it"));
    m_edit = toolBar()->addAction(IconTheme::icon(QStringLiteral("edit-rename")),
                                  QStringLiteral("Edit and rebuild…"));
    m_edit->setToolTip(QStringLiteral("Change the recipe and build the next version; unchanged "
                                      "steps come from the cache"));
    m_log = toolBar()->addAction(IconTheme::icon(QStringLiteral("utilities-terminal")),
                                 QStringLiteral("Build log…"));
    m_create = toolBar()->addAction(IconTheme::icon(QStringLiteral("lizard-sandbox-new")),
                                    QStringLiteral("New sandbox"));
    m_create->setToolTip(QStringLiteral("Start a sandbox from this template in the project"));
    m_delete = toolBar()->addAction(IconTheme::icon(QStringLiteral("edit-delete")),
                                    QStringLiteral("Delete"));
    m_refresh = toolBar()->addAction(IconTheme::icon(QStringLiteral("view-refresh")),
                                     QStringLiteral("Refresh"));
    view()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_new, &QAction::triggered, this, [this] { openEditor({}); });
    connect(m_edit, &QAction::triggered, this, [this] { openEditor(currentTemplate()); });
    connect(m_log, &QAction::triggered, this, [this] {
        const QString name = currentTemplate();
        if (!m_model || name.isEmpty() || m_model->rowOf(name) < 0)
            return;
        const auto& t = m_model->templateAt(m_model->rowOf(name));
        if (RecipeDialog* d = openEditor(name); d && t.lastBuild)
            d->followBuild(t.lastBuild->id);
    });
    connect(m_create, &QAction::triggered, this, [this] { createSandbox(currentTemplate()); });
    connect(m_delete, &QAction::triggered, this, &TemplatesView::confirmDelete);
    connect(m_refresh, &QAction::triggered, this, [this] {
        if (m_model)
            m_model->refresh();
    });
    connect(view(), &QTableView::doubleClicked, this, [this] {
        if (m_edit->isEnabled())
            m_edit->trigger();
    });
    connect(view(), &QWidget::customContextMenuRequested, this, &TemplatesView::showContextMenu);
    updateActions();
}

void TemplatesView::setBackend(TemplateListModel* model, models::SandboxActions* actions,
                               client::LizardApi* api)
{
    if (m_model)
        m_model->disconnect(this);
    m_model = model;
    m_actions = actions;
    m_api = api;
    showModel(model, {{models::TemplateColumn::Name, 180},
                      {models::TemplateColumn::Kind, 150},
                      {models::TemplateColumn::Latest, 170},
                      {models::TemplateColumn::LastBuild, 220}});
    if (!model)
        return;
    // A server without templates from recipes (the cloud) says so here, not in a banner.
    connect(
        model, &models::PolledTableModel::refreshFailed, this, [this](const client::ApiError& e) {
            m_unavailable = e.httpStatus == 404 || e.httpStatus == 501;
            setEmptyText(m_unavailable
                             ? QStringLiteral("This server has no templates of your own: "
                                              "lizard-local builds them from recipes (the "
                                              "Lizard cloud does not offer it here).")
                             : QStringLiteral("Templates could not be listed: %1").arg(e.message));
            updateActions();
        });
    connect(model, &models::PolledTableModel::refreshed, this, [this] {
        m_unavailable = false;
        setEmptyText(QStringLiteral("No templates listed yet."));
        updateActions();
    });
}

QString TemplatesView::currentTemplate() const
{
    return selectedText(TemplateListModel::NameRole);
}

void TemplatesView::selectTemplate(const QString& name)
{
    if (m_model)
        selectRow(m_model->rowOf(name));
}

void TemplatesView::updateActions()
{
    ProjectTableView::updateActions();
    const QString name = currentTemplate();
    const int row = m_model && !name.isEmpty() ? m_model->rowOf(name) : -1;
    const bool recipe = row >= 0 && m_model->templateAt(row).recipe;
    const bool idle = row >= 0 && m_model->activity(name).isEmpty();
    m_new->setEnabled(m_api != nullptr && !m_unavailable);
    m_edit->setEnabled(recipe && idle);
    m_log->setEnabled(recipe && m_model->templateAt(row).lastBuild.has_value());
    m_create->setEnabled(idle && m_actions && m_model->templateAt(row).available &&
                         (!recipe || m_model->templateAt(row).latest.has_value()));
    m_delete->setEnabled(recipe && idle && !m_model->templateAt(row).building);
    m_refresh->setEnabled(m_model != nullptr);
}

RecipeDialog* TemplatesView::openEditor(const QString& name)
{
    if (!m_api)
        return nullptr;
    QString recipe;
    if (m_model && !name.isEmpty() && m_model->rowOf(name) >= 0)
        recipe = m_model->templateAt(m_model->rowOf(name)).recipeText;
    auto* dialog = new RecipeDialog(m_api, name, recipe, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &RecipeDialog::buildStarted, this, [this](const QString& started) {
        if (m_model)
            m_model->refresh();
        emit message(QStringLiteral("Building template %1…").arg(started));
    });
    connect(dialog, &RecipeDialog::buildEnded, this, [this](const client::TemplateBuild& b) {
        if (m_model)
            m_model->refresh();
        emit message(b.status == QLatin1String("succeeded") && b.version
                         ? QStringLiteral("Built template %1:%2").arg(b.name).arg(*b.version)
                         : QStringLiteral("Build of %1: %2").arg(b.name, b.status));
    });
    dialog->show();
    return dialog;
}

void TemplatesView::createSandbox(const QString& name)
{
    if (!m_actions || name.isEmpty())
        return;
    client::CreateSandboxRequest req;
    req.projectId = m_projectId;
    req.templateName = name;
    if (m_model)
        m_model->setActivity(name, QStringLiteral("starting a sandbox…"));
    updateActions();
    QPointer<TemplateListModel> model = m_model;
    m_actions->create(req, this, [this, model, name](client::Outcome<client::SandboxInfo> o) {
        if (model)
            model->setActivity(name, {});
        updateActions();
        if (!o) {
            client::ApiError error = models::withLimitDetails(o.error());
            error.what = QStringLiteral("New sandbox from template %1").arg(name);
            emit errorOccurred(error);
            return;
        }
        emit message(QStringLiteral("Started %1 from template %2").arg(o.value().sandboxId, name));
        emit sandboxCreated(o.value());
    });
}

void TemplatesView::confirmDelete()
{
    const QString name = currentTemplate();
    if (name.isEmpty())
        return;
    const auto answer = QMessageBox::question(
        this, QStringLiteral("Delete template"),
        QStringLiteral("Delete template “%1”, all its versions and its cached layers? Sandboxes "
                       "started from it keep running.")
            .arg(name),
        QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer == QMessageBox::Yes)
        deleteTemplate(name);
}

void TemplatesView::deleteTemplate(const QString& name)
{
    if (!m_model)
        return;
    m_model->deleteTemplate(name, this, [this, name](client::Outcome<client::Unit> o) {
        updateActions();
        if (!o)
            return emit errorOccurred(o.error());
        emit message(QStringLiteral("Deleted template %1").arg(name));
        if (m_model)
            m_model->refresh();
    });
    updateActions();
}

void TemplatesView::showContextMenu(const QPoint& pos)
{
    const QModelIndex index = view()->indexAt(pos);
    if (!index.isValid())
        return;
    selectRow(index.row());
    QMenu menu(this);
    menu.addAction(m_create);
    menu.addAction(m_edit);
    menu.addAction(m_log);
    menu.addSeparator();
    menu.addAction(m_delete);
    menu.exec(view()->viewport()->mapToGlobal(pos));
}

} // namespace lizard::ui
