#include "ui/forkdialog.h"

#include "models/sandboxactions.h"
#include "models/sandboxstaterules.h"
#include "ui/errorlabel.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace lizard::ui {

ForkDialog::ForkDialog(models::SandboxActions* actions, QString sandboxId, QWidget* parent)
    : QDialog(parent), m_actions(actions), m_sandboxId(std::move(sandboxId)),
      m_count(new QSpinBox(this)), m_lifetime(new QSpinBox(this)),
      m_progress(new QProgressBar(this)), m_error(new ErrorLabel(this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(QStringLiteral("Fork %1").arg(m_sandboxId));
    m_count->setRange(1, 100);
    m_count->setValue(1);
    m_count->setSuffix(QStringLiteral(" copies"));
    m_lifetime->setRange(0, 35791); // the API's limit is 2^31-1 ms
    m_lifetime->setValue(0);
    m_lifetime->setSuffix(QStringLiteral(" min"));
    m_lifetime->setSpecialValueText(QStringLiteral("same as the source"));
    m_buttons->button(QDialogButtonBox::Ok)->setText(QStringLiteral("Fork"));
    m_progress->setRange(0, 0);
    m_progress->setTextVisible(true);
    m_progress->hide();

    auto* note = new QLabel(
        QStringLiteral("Each copy is a new sandbox with a copy of the files; its processes start "
                       "fresh. The source keeps running."),
        this);
    note->setWordWrap(true);
    auto* form = new QFormLayout;
    form->addRow(QStringLiteral("Copies:"), m_count);
    form->addRow(QStringLiteral("Lifetime:"), m_lifetime);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(note);
    layout->addLayout(form);
    layout->addWidget(m_progress);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &ForkDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &ForkDialog::reject);
    resize(420, 220);
}

QString ForkDialog::errorText() const
{
    return m_error->errorText();
}

void ForkDialog::showError(const QString& text)
{
    m_error->showError(text);
}

void ForkDialog::setBusy(bool busy)
{
    m_busy = busy;
    m_count->setEnabled(!busy);
    m_lifetime->setEnabled(!busy);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!busy);
    m_progress->setFormat(QStringLiteral("Forking into %1 copies…").arg(m_count->value()));
    m_progress->setVisible(busy);
}

void ForkDialog::accept()
{
    if (m_busy)
        return;
    if (!m_actions) {
        showError(QStringLiteral("Not connected to a Lizard server."));
        return;
    }
    m_error->hide();
    setBusy(true);
    const int count = m_count->value();
    // The fork goes on in the background if the dialog is closed; the table shows its progress.
    m_actions->fork(m_sandboxId, count, qint64(m_lifetime->value()) * 60000, this,
                    [this](client::Outcome<QList<client::ForkEntry>> outcome) {
                        setBusy(false);
                        if (!outcome) {
                            showError(outcome.error().toDisplayString());
                            return;
                        }
                        QList<client::SandboxInfo> copies;
                        QStringList failures;
                        for (const client::ForkEntry& entry : outcome.value()) {
                            if (entry.sandbox)
                                copies << *entry.sandbox;
                            else
                                failures << models::forkFailureText(entry);
                        }
                        emit forked(copies, failures);
                        if (copies.isEmpty()) {
                            showError(QStringLiteral("No copy could be made: %1")
                                          .arg(failures.join(QStringLiteral("; "))));
                            return;
                        }
                        QDialog::accept();
                    });
}

} // namespace lizard::ui
