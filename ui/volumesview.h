#pragma once
// The project's volumes: name, size, which sandbox holds it; New volume…, Grow…,
// Delete (confirmed). A volume is mounted at /workspace by the create dialog.

#include "ui/projecttableview.h"

#include <QPointer>

class QAction;

namespace lizard::models {
class VolumeListModel;
}

namespace lizard::ui {

class VolumesView : public ProjectTableView
{
    Q_OBJECT
public:
    explicit VolumesView(QWidget* parent = nullptr);

    void setBackend(models::VolumeListModel* model); // not owned
    QString currentVolumeId() const;
    void selectVolume(const QString& volumeId);
    QAction* createAction() const { return m_create; }
    QAction* growAction() const { return m_grow; }
    QAction* deleteAction() const { return m_delete; }

    // What the actions do once asked (they ask for a name, a size, a confirmation first).
    void createVolume(const QString& name, int sizeGb);
    void growVolume(const QString& volumeId, int sizeGb);
    void deleteVolume(const QString& volumeId);

private:
    void askCreate();
    void askGrow();
    void confirmDelete();
    void updateActions() override;

    QPointer<models::VolumeListModel> m_model;
    QAction* m_create;
    QAction* m_grow;
    QAction* m_delete;
};

} // namespace lizard::ui
