#pragma once
// "New sandbox": template (with the screen size of a desktop), size, lifetime and what happens
// at its end (kill or pause), pause when unused (lizard-local's policies), env vars, metadata,
// internet access or only some hosts (allowedHosts), a volume of the project at /workspace. Creates
// the sandbox itself (through SandboxActions), shows progress, and shows the server's message and
// code when it fails; the dialog stays open so nothing typed is lost.

#include "client/outcome.h"
#include "client/pendingcall.h"

#include <QDialog>
#include <QPointer>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QSpinBox;

namespace lizard::models {
class SandboxActions;
}

namespace lizard::ui {

class ErrorLabel;

class KeyValueTable;

class CreateSandboxDialog : public QDialog
{
    Q_OBJECT
public:
    CreateSandboxDialog(models::SandboxActions* actions, QString projectId,
                        QWidget* parent = nullptr);

    // The request the widgets describe; false with `error` when a table is invalid.
    bool request(client::CreateSandboxRequest* out, QString* error) const;
    const client::SandboxInfo& created() const { return m_created; }
    QString errorText() const;

    QComboBox* templateBox() const { return m_template; }
    QComboBox* screenBox() const { return m_screen; } // desktop template only
    // The desktop's size to start once the sandbox is up; invalid for other templates.
    QSize screenSize() const;
    QComboBox* sizeBox() const { return m_size; }
    QSpinBox* lifetimeBox() const { return m_lifetime; }
    QComboBox* onTimeoutBox() const { return m_onTimeout; } // data: "kill", "pause"
    QSpinBox* idlePauseBox() const { return m_idlePause; }  // minutes; 0: never
    QCheckBox* internetBox() const { return m_internet; }
    // Hosts separated by commas or spaces; not empty: only they are reachable.
    QLineEdit* allowedHostsEdit() const { return m_allowedHosts; }
    QComboBox* volumeBox() const { return m_volume; } // data: the volume's name, "" for none
    KeyValueTable* envTable() const { return m_envs; }
    KeyValueTable* metadataTable() const { return m_metadata; }
    QDialogButtonBox* buttons() const { return m_buttons; }

signals:
    void sandboxCreated(const lizard::client::SandboxInfo& info);

public slots:
    void accept() override; // starts the creation; the dialog closes when it succeeded
    void reject() override; // cancels a creation in flight

private:
    void setBusy(bool busy);
    void loadVolumes();
    void loadTemplates(); // the templates built from recipes, after the built-in ones
    void showError(const QString& text);

    QPointer<models::SandboxActions> m_actions;
    QString m_projectId;
    QComboBox* m_template;
    QComboBox* m_screen;
    QComboBox* m_size;
    QSpinBox* m_lifetime;
    QComboBox* m_onTimeout;
    QSpinBox* m_idlePause;
    QCheckBox* m_internet;
    QLineEdit* m_allowedHosts;
    QComboBox* m_volume;
    KeyValueTable* m_envs;
    KeyValueTable* m_metadata;
    QProgressBar* m_progress;
    ErrorLabel* m_error;
    QDialogButtonBox* m_buttons;
    QPointer<client::PendingCall> m_call;
    client::SandboxInfo m_created;
};

} // namespace lizard::ui
