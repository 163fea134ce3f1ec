#include "ui/projectpanel.h"

#include "models/projectlistmodel.h"

#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QListView>
#include <QMessageBox>
#include <QToolButton>
#include <QVBoxLayout>

namespace lizard::ui {

using models::ProjectListModel;

ProjectPanel::ProjectPanel(QWidget* parent)
    : QWidget(parent), m_view(new QListView(this)), m_rename(new QToolButton(this)),
      m_delete(new QToolButton(this))
{
    auto* title = new QLabel(QStringLiteral("<b>Projects</b>"), this);
    auto* create = new QToolButton(this);
    create->setText(QStringLiteral("New…"));
    create->setToolTip(QStringLiteral("Create a project"));
    m_rename->setText(QStringLiteral("Rename…"));
    m_delete->setText(QStringLiteral("Delete"));
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setObjectName(QStringLiteral("projectList"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(create);
    buttons->addWidget(m_rename);
    buttons->addWidget(m_delete);
    buttons->addStretch();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(title);
    layout->addWidget(m_view, 1);
    layout->addLayout(buttons);
    connect(create, &QToolButton::clicked, this, &ProjectPanel::createProject);
    connect(m_rename, &QToolButton::clicked, this, &ProjectPanel::renameProject);
    connect(m_delete, &QToolButton::clicked, this, &ProjectPanel::deleteProject);
}

void ProjectPanel::setModel(ProjectListModel* model)
{
    m_model = model;
    m_lastEmitted.clear();
    m_view->setModel(model);
    emitCurrent();
    if (model == nullptr)
        return;
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &ProjectPanel::emitCurrent);
    connect(model, &ProjectListModel::refreshed, this, [this] {
        if (!m_view->currentIndex().isValid() && m_model && m_model->defaultRow() >= 0)
            m_view->setCurrentIndex(m_model->index(m_model->defaultRow()));
    });
    connect(model, &ProjectListModel::projectCreated, this,
            [this](const client::Project& p) { selectProject(p.id); });
    connect(model, &QAbstractItemModel::rowsRemoved, this, [this] {
        if (!m_view->currentIndex().isValid() && m_model && m_model->defaultRow() >= 0)
            m_view->setCurrentIndex(m_model->index(m_model->defaultRow()));
        emitCurrent();
    });
    connect(model, &QAbstractItemModel::dataChanged, this, [this] {
        if (!m_lastEmitted.isEmpty()) // a rename: tell listeners the new name
            emit projectSelected(currentProjectId(), currentProjectName());
    });
}

void ProjectPanel::selectProject(const QString& projectId)
{
    if (!m_model)
        return;
    const int row = m_model->rowOf(projectId);
    if (row >= 0)
        m_view->setCurrentIndex(m_model->index(row));
}

QString ProjectPanel::currentProjectId() const
{
    return m_view->currentIndex().data(ProjectListModel::ProjectIdRole).toString();
}

QString ProjectPanel::currentProjectName() const
{
    return m_view->currentIndex().data().toString();
}

void ProjectPanel::emitCurrent()
{
    const QString id = currentProjectId();
    m_rename->setEnabled(!id.isEmpty());
    m_delete->setEnabled(!id.isEmpty());
    if (id == m_lastEmitted)
        return;
    m_lastEmitted = id;
    emit projectSelected(id, currentProjectName());
}

void ProjectPanel::createProject()
{
    if (!m_model)
        return;
    bool ok = false;
    const QString name = QInputDialog::getText(this, QStringLiteral("New project"),
                                               QStringLiteral("Name:"), QLineEdit::Normal, {}, &ok);
    if (ok && !name.trimmed().isEmpty())
        m_model->createProject(name);
}

void ProjectPanel::renameProject()
{
    const QString id = currentProjectId();
    if (!m_model || id.isEmpty())
        return;
    bool ok = false;
    const QString name =
        QInputDialog::getText(this, QStringLiteral("Rename project"), QStringLiteral("New name:"),
                              QLineEdit::Normal, currentProjectName(), &ok);
    if (ok && !name.trimmed().isEmpty() && name != currentProjectName())
        m_model->renameProject(id, name);
}

void ProjectPanel::deleteProject()
{
    const QString id = currentProjectId();
    if (!m_model || id.isEmpty())
        return;
    const auto answer =
        QMessageBox::question(this, QStringLiteral("Delete project"),
                              QStringLiteral("Delete the project \"%1\"? This cannot be undone.")
                                  .arg(currentProjectName()),
                              QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer == QMessageBox::Yes)
        m_model->deleteProject(id);
}

} // namespace lizard::ui
