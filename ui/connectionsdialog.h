#pragma once
// Connections: the built-in local server, Lizard cloud accounts and SSH hosts. Lets the user add
// a cloud connection (URL, API key, optionally their organisation's CA certificate), test it
// before adding it, change or clear the CA certificate of a cloud connection, add an SSH host
// (ui/sshhostform.h), remove one, and pick the active one. Says where keys are kept.

#include "models/connectionprofile.h"

#include <QDialog>
#include <QMap>

class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace lizard::ui {

class SshHostForm;

class ConnectionsDialog : public QDialog
{
    Q_OBJECT
public:
    ConnectionsDialog(const QList<models::ConnectionProfile>& profiles, const QString& activeId,
                      const QString& keyStorageNote, QWidget* parent = nullptr);

    QList<models::ConnectionProfile> profiles() const { return m_profiles; }
    QString activeId() const;
    QMap<QString, QString> newKeys() const { return m_newKeys; } // profile id -> API key
    QStringList removedIds() const { return m_removed; }

    // The "add cloud connection" form (public for tests).
    QLineEdit* nameEdit() const { return m_name; }
    QLineEdit* urlEdit() const { return m_url; }
    QLineEdit* keyEdit() const { return m_key; }
    QLineEdit* caFileEdit() const { return m_caFile; }
    // "Test": asks the server who the form's key belongs to, with the form's CA file; the
    // answer (or why it failed, e.g. an untrusted certificate) appears in testResultLabel().
    QPushButton* testButton() const { return m_test; }
    QLabel* testResultLabel() const { return m_testResult; }
    // Validates and adds; selects it. An http:// URL that is not loopback asks first (a
    // warning naming the risk; Cancel is the default) and is not added unless confirmed.
    bool addCloudFromForm(QString* error);
    QListWidget* list() const { return m_list; }
    // The "add SSH host" form; adding validates it and selects the new host.
    SshHostForm* sshForm() const { return m_sshForm; }
    bool addSshFromForm(QString* error);
    // The selected cloud connection's CA certificate file: a readable PEM file, or "" for none.
    // False with *error (and nothing changed) for a bad file or when Local is selected.
    bool setSelectedCaFile(const QString& path, QString* error);
    QPushButton* selectedCaButton() const { return m_selectedCa; }
    QPushButton* clearCaButton() const { return m_clearCa; }

    // "Use selected": a connection that would send its key unencrypted and was never
    // confirmed asks first; declined, the dialog stays open.
    void accept() override;

private:
    // The warning box (object name "keyInClearWarning"); true if the user chose to send.
    bool confirmKeyInClear(const QString& url);
    // The form's CA file: empty (none) or a readable PEM certificate; else false and *error.
    static bool checkCaFile(const QString& path, QString* error);
    models::ConnectionProfile* selectedProfile();
    void updateSelectionButtons();
    void showError(const QString& error);
    void testForm();
    void chooseCaFile();
    void rebuildList(const QString& selectId);
    void removeSelected();
    QString freeId(const QString& prefix) const;

    QList<models::ConnectionProfile> m_profiles;
    QMap<QString, QString> m_newKeys;
    QStringList m_removed;
    QListWidget* m_list;
    QLineEdit* m_name;
    QLineEdit* m_url;
    QLineEdit* m_key;
    QLineEdit* m_caFile;
    QPushButton* m_test;
    QPushButton* m_selectedCa;
    QPushButton* m_clearCa;
    QLabel* m_testResult;
    QLabel* m_error;
    SshHostForm* m_sshForm;
    quint64 m_testSerial = 0; // a newer test makes an older answer stale
};

} // namespace lizard::ui
