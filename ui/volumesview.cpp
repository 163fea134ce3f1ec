#include "ui/volumesview.h"

#include "models/volumelistmodel.h"
#include "ui/newvolumedialog.h"
#include "ui/tableselection.h"
#include "ui/theme/icontheme.h"

#include <QAction>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>

namespace lizard::ui {

using models::VolumeListModel;

VolumesView::VolumesView(QWidget* parent)
    : ProjectTableView(
          QStringLiteral("volumeTable"),
          QStringLiteral("No volumes yet. A volume keeps files at /workspace across sandboxes."),
          parent)
{
    m_create = toolBar()->addAction(IconTheme::icon(QStringLiteral("lizard-volume-new")),
                                    QStringLiteral("New volume…"));
    m_grow = toolBar()->addAction(IconTheme::icon(QStringLiteral("lizard-volume-grow")),
                                  QStringLiteral("Grow…"));
    m_delete = toolBar()->addAction(IconTheme::icon(QStringLiteral("edit-delete")),
                                    QStringLiteral("Delete"));
    connect(m_create, &QAction::triggered, this, &VolumesView::askCreate);
    connect(m_grow, &QAction::triggered, this, &VolumesView::askGrow);
    connect(m_delete, &QAction::triggered, this, &VolumesView::confirmDelete);
    updateActions();
}

void VolumesView::setBackend(VolumeListModel* model)
{
    m_model = model;
    showModel(model, {{models::VolumeColumn::Name, 200},
                      {models::VolumeColumn::Size, 150},
                      {models::VolumeColumn::AttachedTo, 190}});
}

QString VolumesView::currentVolumeId() const
{
    return selectedText(VolumeListModel::VolumeIdRole);
}

void VolumesView::selectVolume(const QString& volumeId)
{
    if (m_model)
        selectRow(m_model->rowOf(volumeId));
}

void VolumesView::updateActions()
{
    ProjectTableView::updateActions();
    const QString id = currentVolumeId();
    const bool idle = m_model && !id.isEmpty() && m_model->activity(id).isEmpty();
    m_create->setEnabled(m_model && !m_model->projectId().isEmpty());
    m_grow->setEnabled(idle);
    m_delete->setEnabled(idle);
}

void VolumesView::askCreate()
{
    auto* dialog = new NewVolumeDialog(m_model, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &NewVolumeDialog::created, this, [this](const client::Volume& volume) {
        selectVolume(volume.id);
        emit message(QStringLiteral("Created volume %1").arg(volume.name));
    });
    dialog->open();
}

void VolumesView::createVolume(const QString& name, int sizeGb)
{
    if (!m_model)
        return;
    m_model->createVolume(name, sizeGb, this, [this](client::Outcome<client::Volume> outcome) {
        if (!outcome) {
            emit errorOccurred(outcome.error());
            return;
        }
        selectVolume(outcome.value().id);
        emit message(QStringLiteral("Created volume %1").arg(outcome.value().name));
    });
}

void VolumesView::askGrow()
{
    const QString id = currentVolumeId();
    if (id.isEmpty() || !m_model)
        return;
    const client::Volume volume = m_model->volumeAt(m_model->rowOf(id));
    auto* ask = new QInputDialog(this);
    ask->setAttribute(Qt::WA_DeleteOnClose);
    ask->setObjectName(QStringLiteral("growVolumeDialog"));
    ask->setWindowTitle(QStringLiteral("Grow %1").arg(volume.name));
    ask->setLabelText(QStringLiteral("New size in GB (volumes only grow):"));
    ask->setInputMode(QInputDialog::IntInput);
    ask->setIntRange(volume.sizeGb + 1, 16384);
    ask->setIntValue(volume.sizeGb * 2);
    connect(ask, &QInputDialog::intValueSelected, this,
            [this, id](int size) { growVolume(id, size); });
    ask->open();
}

void VolumesView::growVolume(const QString& volumeId, int sizeGb)
{
    if (!m_model)
        return;
    m_model->resizeVolume(volumeId, sizeGb, this, [this](client::Outcome<client::Volume> outcome) {
        updateActions();
        if (outcome)
            emit message(QStringLiteral("Volume %1 is now %2 GB")
                             .arg(outcome.value().name)
                             .arg(outcome.value().sizeGb));
        else
            emit errorOccurred(outcome.error());
    });
    updateActions();
}

void VolumesView::confirmDelete()
{
    const QString id = currentVolumeId();
    if (id.isEmpty() || !m_model)
        return;
    const client::Volume volume = m_model->volumeAt(m_model->rowOf(id));
    const auto answer = QMessageBox::question(
        this, QStringLiteral("Delete volume"),
        QStringLiteral("Delete volume “%1” and every file on it?").arg(volume.name),
        QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer == QMessageBox::Yes)
        deleteVolume(id);
}

void VolumesView::deleteVolume(const QString& volumeId)
{
    if (!m_model)
        return;
    m_model->deleteVolume(volumeId, this, [this, volumeId](client::Outcome<client::Unit> outcome) {
        updateActions();
        if (outcome)
            emit message(QStringLiteral("Deleted volume %1").arg(volumeId));
        else
            emit errorOccurred(outcome.error());
    });
    updateActions();
}

} // namespace lizard::ui
