#pragma once
// The sandbox table of the selected project with its actions (toolbar and context menu):
// New sandbox…, Kill (confirmed), Extend lifetime…, Copy id.

#include "client/lizardapi.h"

#include <QPointer>
#include <QWidget>

class QAction;
class QLabel;
class QTableView;
class QToolBar;

namespace lizard::models {
class SandboxActions;
class SandboxTableModel;
}

namespace lizard::ui {

class SandboxPanel : public QWidget
{
    Q_OBJECT
public:
    explicit SandboxPanel(QWidget* parent = nullptr);

    void setBackend(models::SandboxTableModel* model, models::SandboxActions* actions); // not owned
    void setProjectName(const QString& name);
    QString currentSandboxId() const;
    void selectSandbox(const QString& sandboxId);
    QTableView* view() const { return m_view; }
    QAction* newAction() const { return m_new; }
    QAction* killAction() const { return m_kill; }
    QAction* extendAction() const { return m_extend; }
    QAction* copyIdAction() const { return m_copy; }

    // Adds a feature's action on the selected sandbox (e.g. "Open notebook") to the toolbar and
    // the context menu. It is enabled while a sandbox is selected; the handler reads
    // currentSandboxId().
    void addSandboxAction(QAction* action);

    // Kill without asking (the Kill action asks first).
    void killSandbox(const QString& sandboxId);

signals:
    void currentSandboxChanged(const QString& sandboxId);
    void errorOccurred(const lizard::client::ApiError& error);
    void message(const QString& text);

private:
    void newSandbox();
    void confirmKill();
    void extendLifetime();
    void copyId();
    void updateActions();
    void showContextMenu(const QPoint& pos);

    QPointer<models::SandboxTableModel> m_model;
    QPointer<models::SandboxActions> m_actions;
    QTableView* m_view;
    QLabel* m_title;
    QToolBar* m_bar;
    QList<QAction*> m_extra;
    QAction* m_new;
    QAction* m_kill;
    QAction* m_extend;
    QAction* m_copy;
    QString m_lastId;
};

} // namespace lizard::ui
