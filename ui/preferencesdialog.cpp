#include "ui/preferencesdialog.h"

#include "client/types.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

namespace lizard::ui {

PreferencesDialog::PreferencesDialog(int notebookLifetimeMinutes, QWidget* parent)
    : QDialog(parent), m_lifetime(new QSpinBox(this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setObjectName(QStringLiteral("preferencesDialog"));
    setWindowTitle(QStringLiteral("Preferences"));
    m_lifetime->setObjectName(QStringLiteral("notebookLifetime"));
    m_lifetime->setRange(1, client::kMaxLifetimeMinutes);
    m_lifetime->setSuffix(QStringLiteral(" min"));
    m_lifetime->setValue(notebookLifetimeMinutes);
    auto* hint = new QLabel(
        QStringLiteral("The sandbox that Notebook ▸ New notebook makes ends after this time "
                       "(extend it with Sandbox ▸ Extend lifetime…)."),
        this);
    hint->setWordWrap(true);
    auto* form = new QFormLayout;
    form->addRow(QStringLiteral("New notebook lifetime:"), m_lifetime);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(hint);
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    setMinimumWidth(420);
}

int PreferencesDialog::notebookLifetimeMinutes() const
{
    return m_lifetime->value();
}

} // namespace lizard::ui
