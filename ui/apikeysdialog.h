#pragma once
// Lizard ▸ API keys…: the account's keys (name, scope, created, last used), a new key (name and
// scope; its whole secret is shown once, with Copy), and revoking a key after a confirmation.
// The same calls serve lizard-local and the cloud; what a server refuses is said in the dialog.

#include "client/types.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTreeWidget;
class QWidget;

namespace lizard::client {
class LizardApi;
}

namespace lizard::models {
class ApiKeys;
}

namespace lizard::ui {

class ApiKeysDialog : public QDialog
{
    Q_OBJECT
public:
    // api: the active connection (not owned; it must outlive the dialog). where: its label.
    ApiKeysDialog(client::LizardApi* api, const QString& where, QWidget* parent = nullptr);

    void refresh();
    // The secret of the key created last, while the dialog shows it ("" otherwise).
    QString shownKey() const;

signals:
    void keysListed(); // after each list answer (tests wait on it)

private:
    void showKeys(const QList<client::ApiKey>& keys);
    void create();
    void showCreated(const QString& secret);
    void revokeSelected();
    void copyKey();
    void showError(const client::ApiError& error);
    void updateButtons();

    models::ApiKeys* m_keysModel;
    QList<client::ApiKey> m_keys;
    QTreeWidget* m_list;
    QPushButton* m_revoke;
    QPushButton* m_refresh;
    QLineEdit* m_name;
    QComboBox* m_scope;
    QPushButton* m_create;
    QWidget* m_secretBox;
    QLineEdit* m_secret;
    QPushButton* m_copy;
    QLabel* m_error;
    QLabel* m_status;
};

} // namespace lizard::ui
