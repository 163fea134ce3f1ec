#include "ui/sshhostform.h"

#include "ui/theme/icontheme.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace lizard::ui {

SshHostForm::SshHostForm(QWidget* parent)
    : QGroupBox(QStringLiteral("New SSH host"), parent), m_name(new QLineEdit(this)),
      m_destination(new QLineEdit(this)), m_port(new QSpinBox(this)),
      m_identity(new QLineEdit(this))
{
    setObjectName(QStringLiteral("sshHostForm"));
    m_name->setPlaceholderText(QStringLiteral("Workstation"));
    m_destination->setPlaceholderText(QStringLiteral("user@host"));
    m_destination->setToolTip(
        QStringLiteral("The computer that runs lizard-local, as you would give it to ssh: "
                       "user@host, or a Host of your ~/.ssh/config."));
    m_port->setRange(0, 65535);
    m_port->setSpecialValueText(QStringLiteral("ssh's default"));
    m_identity->setPlaceholderText(QStringLiteral("optional: else ~/.ssh/config and ssh-agent"));
    auto* choose = new QPushButton(QStringLiteral("Choose…"), this);
    auto* add = new QPushButton(IconTheme::icon(QStringLiteral("network-server")),
                                QStringLiteral("Add SSH host"), this);
    auto* note = new QLabel(
        QStringLiteral("The app logs in with your ssh keys (no passwords), starts lizard-local "
                       "there if it is not running, and forwards it through the SSH connection. "
                       "The host needs lizard-local installed."),
        this);
    note->setWordWrap(true);

    auto* form = new QFormLayout(this);
    form->addRow(QStringLiteral("Name:"), m_name);
    form->addRow(QStringLiteral("Host:"), m_destination);
    form->addRow(QStringLiteral("Port:"), m_port);
    auto* identityRow = new QHBoxLayout;
    identityRow->addWidget(m_identity, 1);
    identityRow->addWidget(choose);
    form->addRow(QStringLiteral("Identity file:"), identityRow);
    auto* actions = new QHBoxLayout;
    actions->addWidget(add);
    actions->addStretch(1);
    form->addRow(QString(), actions);
    form->addRow(note);
    connect(add, &QPushButton::clicked, this, &SshHostForm::addRequested);
    connect(choose, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, QStringLiteral("SSH identity file"), QString(), QStringLiteral("All files (*)"));
        if (!path.isEmpty())
            m_identity->setText(path);
    });
}

bool SshHostForm::toProfile(models::ConnectionProfile* profile, QString* error) const
{
    const QString destination = m_destination->text().trimmed();
    // Given to ssh as its last argument: a leading '-' would make it an option.
    bool plain = !destination.isEmpty() && !destination.startsWith(QLatin1Char('-'));
    for (const QChar c : destination)
        plain = plain && !c.isSpace() && c.isPrint();
    if (!plain) {
        *error = QStringLiteral("The host must look like user@host (no spaces, not starting "
                                "with -).");
        return false;
    }
    const QString identity = m_identity->text().trimmed();
    if (!identity.isEmpty() && !QFileInfo(identity).isReadable()) {
        *error = QStringLiteral("The identity file %1 cannot be read.").arg(identity);
        return false;
    }
    profile->kind = models::ConnectionProfile::Kind::Ssh;
    profile->name = m_name->text().trimmed().isEmpty() ? destination : m_name->text().trimmed();
    profile->sshDestination = destination;
    profile->sshPort = m_port->value();
    profile->sshIdentity = identity;
    return true;
}

void SshHostForm::clear()
{
    m_name->clear();
    m_destination->clear();
    m_port->setValue(0);
    m_identity->clear();
}

} // namespace lizard::ui
