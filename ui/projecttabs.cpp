#include "ui/projecttabs.h"

#include "models/sandboxactions.h"
#include "models/snapshotlistmodel.h"
#include "models/templates/templatelistmodel.h"
#include "models/volumelistmodel.h"
#include "ui/sandboxpanel.h"
#include "ui/snapshotsview.h"
#include "ui/templates/templatesview.h"
#include "ui/volumesview.h"

namespace lizard::ui {

ProjectTabs::ProjectTabs(SandboxPanel* sandboxes, QWidget* parent)
    : QTabWidget(parent), m_sandboxes(sandboxes), m_snapshots(new SnapshotsView),
      m_volumes(new VolumesView), m_templates(new TemplatesView)
{
    setObjectName(QStringLiteral("projectTabs"));
    setDocumentMode(true);
    addTab(m_sandboxes, QStringLiteral("Sandboxes"));
    addTab(m_snapshots, QStringLiteral("Snapshots"));
    addTab(m_volumes, QStringLiteral("Volumes"));
    addTab(m_templates, QStringLiteral("Templates"));
    connect(m_templates, &TemplatesView::errorOccurred, this, &ProjectTabs::errorOccurred);
    connect(m_templates, &TemplatesView::message, this, &ProjectTabs::message);
    connect(m_templates, &TemplatesView::sandboxCreated, this,
            [this](const client::SandboxInfo& info) {
                setCurrentIndex(SandboxesTab);
                m_sandboxes->showNewSandbox(info);
            });
    connect(m_snapshots, &SnapshotsView::errorOccurred, this, &ProjectTabs::errorOccurred);
    connect(m_snapshots, &SnapshotsView::message, this, &ProjectTabs::message);
    connect(m_volumes, &VolumesView::errorOccurred, this, &ProjectTabs::errorOccurred);
    connect(m_volumes, &VolumesView::message, this, &ProjectTabs::message);
    connect(m_snapshots, &SnapshotsView::restored, this, [this](const client::SandboxInfo& info) {
        setCurrentIndex(SandboxesTab);
        m_sandboxes->showNewSandbox(info);
    });
}

void ProjectTabs::setBackend(client::LizardApi* api, models::SandboxActions* actions)
{
    m_snapshots->setBackend(nullptr, nullptr);
    m_volumes->setBackend(nullptr);
    m_templates->setBackend(nullptr, nullptr, nullptr);
    delete m_snapshotModel;
    delete m_volumeModel;
    delete m_templateModel;
    m_snapshotModel = nullptr;
    m_volumeModel = nullptr;
    m_templateModel = nullptr;
    if (api == nullptr)
        return;
    m_snapshotModel = new models::SnapshotListModel(api, this);
    m_volumeModel = new models::VolumeListModel(api, this);
    for (models::PolledTableModel* model :
         std::initializer_list<models::PolledTableModel*>{m_snapshotModel, m_volumeModel})
        connect(model, &models::PolledTableModel::refreshFailed, this, &ProjectTabs::errorOccurred);
    if (actions != nullptr)
        connect(actions, &models::SandboxActions::snapshotStarted, m_snapshotModel,
                &models::SnapshotListModel::addSnapshot);
    m_snapshots->setBackend(m_snapshotModel, actions);
    m_volumes->setBackend(m_volumeModel);
    // The templates are the server's, not the project's; a server without templates from
    // recipes says so in the tab (not in the error banner).
    m_templateModel = new models::TemplateListModel(api, this);
    m_templates->setBackend(m_templateModel, actions, api);
}

void ProjectTabs::setProjectId(const QString& projectId)
{
    if (m_snapshotModel && m_snapshotModel->projectId() != projectId)
        m_snapshotModel->setProjectId(projectId);
    if (m_volumeModel && m_volumeModel->projectId() != projectId)
        m_volumeModel->setProjectId(projectId);
    m_templates->setProjectId(projectId);
    if (m_templateModel && m_templateModel->projectId().isEmpty())
        m_templateModel->setProjectId(projectId); // starts its polling (any project: the same list)
}

} // namespace lizard::ui
