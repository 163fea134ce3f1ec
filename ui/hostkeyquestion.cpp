#include "ui/hostkeyquestion.h"

#include <QMessageBox>
#include <QPushButton>

namespace lizard::ui {

QMessageBox* askToTrustHostKey(QWidget* parent, const QString& host,
                               const QStringList& fingerprints, std::function<void(bool)> answer)
{
    auto* box =
        new QMessageBox(QMessageBox::Question, QStringLiteral("Unknown host key of %1").arg(host),
                        QStringLiteral("The authenticity of %1 cannot be established: this "
                                       "computer has never connected to it.")
                            .arg(host.toHtmlEscaped()),
                        QMessageBox::NoButton, parent);
    box->setObjectName(QStringLiteral("hostKeyQuestion"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QStringList shown;
    for (const QString& line : fingerprints)
        shown << line.toHtmlEscaped();
    box->setInformativeText(
        QStringLiteral("Its key's fingerprint:<br><tt>%1</tt><br><br>Compare it with the host's "
                       "own (<tt>ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub</tt> there). "
                       "Trusted, it is added to your ~/.ssh/known_hosts, and a different key "
                       "later is refused.")
            .arg(shown.join(QStringLiteral("<br>"))));
    box->setTextFormat(Qt::RichText);
    QPushButton* trust =
        box->addButton(QStringLiteral("Trust and connect"), QMessageBox::AcceptRole);
    QPushButton* cancel = box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(cancel);
    box->setEscapeButton(cancel);
    QObject::connect(box, &QMessageBox::finished, box,
                     [box, trust, answer] { answer(box->clickedButton() == trust); });
    box->open();
    return box;
}

} // namespace lizard::ui
