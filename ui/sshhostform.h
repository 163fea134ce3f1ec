#pragma once
// The Connections dialog's form for an SSH host: user@host (or a Host of ~/.ssh/config), the
// port and an optional identity file. Without one, ssh's configuration and agent choose the key.

#include "models/connectionprofile.h"

#include <QGroupBox>

class QLineEdit;
class QSpinBox;

namespace lizard::ui {

class SshHostForm : public QGroupBox
{
    Q_OBJECT
public:
    explicit SshHostForm(QWidget* parent = nullptr);

    QLineEdit* nameEdit() const { return m_name; }
    QLineEdit* destinationEdit() const { return m_destination; }
    QSpinBox* portBox() const { return m_port; } // 0: ssh's own (22 or the configuration's)
    QLineEdit* identityEdit() const { return m_identity; }

    // The form as a profile (its id left empty), or false with *error; the form is kept.
    bool toProfile(models::ConnectionProfile* profile, QString* error) const;
    void clear();

signals:
    void addRequested();

private:
    QLineEdit* m_name;
    QLineEdit* m_destination;
    QSpinBox* m_port;
    QLineEdit* m_identity;
};

} // namespace lizard::ui
