#pragma once
// The top-right area of the home view: "Sandboxes | Snapshots | Volumes" of the
// selected project, and the server's "Templates". Owns the snapshot and volume models (they follow
// the backend and the project); a snapshot taken from the sandbox list appears in Snapshots at
// once, and a restored sandbox is shown selected in Sandboxes.

#include "client/outcome.h"

#include <QTabWidget>

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models {
class SandboxActions;
class SnapshotListModel;
class TemplateListModel;
class VolumeListModel;
} // namespace lizard::models

namespace lizard::ui {

class SandboxPanel;
class SnapshotsView;
class TemplatesView;
class VolumesView;

class ProjectTabs : public QTabWidget
{
    Q_OBJECT
public:
    enum Tab { SandboxesTab, SnapshotsTab, VolumesTab, TemplatesTab };

    explicit ProjectTabs(SandboxPanel* sandboxes, QWidget* parent = nullptr);

    // api and actions are not owned; nullptr clears (models are deleted).
    void setBackend(client::LizardApi* api, models::SandboxActions* actions);
    void setProjectId(const QString& projectId);

    SnapshotsView* snapshotsView() const { return m_snapshots; }
    VolumesView* volumesView() const { return m_volumes; }
    TemplatesView* templatesView() const { return m_templates; }
    models::TemplateListModel* templateModel() const { return m_templateModel; }
    models::SnapshotListModel* snapshotModel() const { return m_snapshotModel; }
    models::VolumeListModel* volumeModel() const { return m_volumeModel; }

signals:
    void errorOccurred(const lizard::client::ApiError& error);
    void message(const QString& text);

private:
    SandboxPanel* m_sandboxes;
    SnapshotsView* m_snapshots;
    VolumesView* m_volumes;
    TemplatesView* m_templates;
    models::SnapshotListModel* m_snapshotModel = nullptr;
    models::TemplateListModel* m_templateModel = nullptr;
    models::VolumeListModel* m_volumeModel = nullptr;
};

} // namespace lizard::ui
