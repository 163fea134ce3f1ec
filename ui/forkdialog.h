#pragma once
// "Fork…": how many copies (1–100) and their lifetime. Forks through SandboxActions,
// shows progress while the server copies, and the server's message when it fails; the dialog
// stays open then so nothing typed is lost. Copies that could not be made are listed.

#include "client/outcome.h"

#include <QDialog>
#include <QPointer>

class QDialogButtonBox;
class QLabel;
class QProgressBar;
class QSpinBox;

namespace lizard::models {
class SandboxActions;
}

namespace lizard::ui {

class ErrorLabel;

class ForkDialog : public QDialog
{
    Q_OBJECT
public:
    ForkDialog(models::SandboxActions* actions, QString sandboxId, QWidget* parent = nullptr);

    QSpinBox* countBox() const { return m_count; }
    QSpinBox* lifetimeBox() const { return m_lifetime; } // minutes; 0 = the source's
    QDialogButtonBox* buttons() const { return m_buttons; }
    QString errorText() const;

signals:
    // The copies that were made (maybe fewer than asked: `failures` says why the others not).
    void forked(const QList<lizard::client::SandboxInfo>& copies, const QStringList& failures);

public slots:
    void accept() override;

private:
    void setBusy(bool busy);
    void showError(const QString& text);

    QPointer<models::SandboxActions> m_actions;
    QString m_sandboxId;
    QSpinBox* m_count;
    QSpinBox* m_lifetime;
    QProgressBar* m_progress;
    ErrorLabel* m_error;
    QDialogButtonBox* m_buttons;
    bool m_busy = false;
};

} // namespace lizard::ui
