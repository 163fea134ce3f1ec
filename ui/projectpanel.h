#pragma once
// The project list on the left with New / Rename / Delete. Selects the "default" project
// after the first load and keeps the selection across refreshes.

#include <QPointer>
#include <QWidget>

class QListView;
class QToolButton;

namespace lizard::models {
class ProjectListModel;
}

namespace lizard::ui {

class ProjectPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ProjectPanel(QWidget* parent = nullptr);

    void setModel(models::ProjectListModel* model); // not owned
    QString currentProjectId() const;
    QString currentProjectName() const;
    QListView* view() const { return m_view; }
    void selectProject(const QString& projectId);

signals:
    void projectSelected(const QString& projectId, const QString& name);

private:
    void createProject();
    void renameProject();
    void deleteProject();
    void emitCurrent();

    QPointer<models::ProjectListModel> m_model;
    QListView* m_view;
    QToolButton* m_rename;
    QToolButton* m_delete;
    QString m_selectAfterCreate;
    QString m_lastEmitted;
};

} // namespace lizard::ui
