#pragma once
// The Templates tab: the built-in templates and the ones built from recipes, with their latest
// version, size, last build and warm copies. New template… and Edit and rebuild… open the
// recipe editor; Build log… follows the last build; New sandbox starts one from the selected
// template in the current project; Delete asks first. Against a server without templates from
// recipes (the cloud), the tab says so instead of a table.

#include "ui/projecttableview.h"

#include <QPointer>

class QAction;

namespace lizard::client {
class LizardApi;
}
namespace lizard::models {
class SandboxActions;
class TemplateListModel;
} // namespace lizard::models

namespace lizard::ui {

class RecipeDialog;

class TemplatesView : public ProjectTableView
{
    Q_OBJECT
public:
    explicit TemplatesView(QWidget* parent = nullptr);

    // Not owned; nulls clear.
    void setBackend(models::TemplateListModel* model, models::SandboxActions* actions,
                    client::LizardApi* api);
    void setProjectId(const QString& projectId) { m_projectId = projectId; }
    QString currentTemplate() const;
    void selectTemplate(const QString& name);

    QAction* newAction() const { return m_new; }
    QAction* editAction() const { return m_edit; }
    QAction* logAction() const { return m_log; }
    QAction* createAction() const { return m_create; }
    QAction* deleteAction() const { return m_delete; }

    // What the actions open (tests drive them): the editor, shown and not modal.
    RecipeDialog* openEditor(const QString& name);
    void createSandbox(const QString& name);
    void deleteTemplate(const QString& name);

signals:
    void sandboxCreated(const lizard::client::SandboxInfo& sandbox);

private:
    void updateActions() override;
    void confirmDelete();
    void showContextMenu(const QPoint& pos);

    QPointer<models::TemplateListModel> m_model;
    QPointer<models::SandboxActions> m_actions;
    client::LizardApi* m_api = nullptr; // not owned; setBackend(nullptr...) before it goes
    QString m_projectId;
    bool m_unavailable = false; // the server has no templates from recipes
    QAction* m_new;
    QAction* m_edit;
    QAction* m_log;
    QAction* m_create;
    QAction* m_delete;
    QAction* m_refresh;
};

} // namespace lizard::ui
