#include "ui/preferencesdialog.h"

#include "client/types.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

namespace lizard::ui {

PreferencesDialog::PreferencesDialog(int notebookLifetimeMinutes, QWidget* parent)
    : QDialog(parent), m_lifetime(new QSpinBox(this)),
      m_extendLocal(new QCheckBox(QStringLiteral("Local sandboxes (lizard-local)"), this)),
      m_extendCloud(new QCheckBox(QStringLiteral("Cloud sandboxes (billed while they run)"), this)),
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
    m_extendLocal->setObjectName(QStringLiteral("autoExtendLocal"));
    m_extendCloud->setObjectName(QStringLiteral("autoExtendCloud"));
    setAutoExtend(true, false);
    auto* extendHint = new QLabel(
        QStringLiteral(
            "While a notebook is in use (a cell ran or was edited in the last 30 minutes), its "
            "sandbox's deadline is moved forward before it passes."),
        this);
    extendHint->setWordWrap(true);
    auto* form = new QFormLayout;
    form->addRow(QStringLiteral("New notebook lifetime:"), m_lifetime);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(hint);
    layout->addWidget(
        new QLabel(QStringLiteral("Keep a notebook's sandbox alive while you work:"), this));
    layout->addWidget(m_extendLocal);
    layout->addWidget(m_extendCloud);
    layout->addWidget(extendHint);
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    setMinimumWidth(420);
}

int PreferencesDialog::notebookLifetimeMinutes() const
{
    return m_lifetime->value();
}

void PreferencesDialog::setAutoExtend(bool local, bool cloud)
{
    m_extendLocal->setChecked(local);
    m_extendCloud->setChecked(cloud);
}

bool PreferencesDialog::autoExtendLocal() const
{
    return m_extendLocal->isChecked();
}

bool PreferencesDialog::autoExtendCloud() const
{
    return m_extendCloud->isChecked();
}

} // namespace lizard::ui
