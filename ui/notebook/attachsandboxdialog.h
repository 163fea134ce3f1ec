#pragma once
// "Attach to sandbox…": the running (and paused) sandboxes of the current project, with their
// template, state, age and deadline, listed from the server; the user picks the one the notebook
// moves to.

#include <QDialog>
#include <QPointer>

class QDialogButtonBox;
class QLabel;
class QTreeWidget;

namespace lizard::models {
class SandboxActions;
}

namespace lizard::ui::notebook {

class AttachSandboxDialog : public QDialog
{
    Q_OBJECT
public:
    enum Column { IdColumn, TemplateColumn, StateColumn, AgeColumn, EndsColumn };
    // `currentId` (the notebook's own sandbox) is not offered.
    AttachSandboxDialog(models::SandboxActions* actions, const QString& projectId,
                        const QString& currentId, QWidget* parent = nullptr);

    void refresh();
    QString selectedSandboxId() const;
    QTreeWidget* list() const { return m_list; }
    QString statusText() const;
    QDialogButtonBox* buttons() const { return m_buttons; }
    // "45 s", "12 min", "3 h 05 min", "2 d 4 h"
    static QString formatAge(qint64 seconds);

signals:
    void listed(); // the list shows the server's answer (or why there is none)

private:
    QPointer<models::SandboxActions> m_actions;
    QString m_projectId;
    QString m_currentId;
    QLabel* m_status;
    QTreeWidget* m_list;
    QDialogButtonBox* m_buttons;
};

} // namespace lizard::ui::notebook
