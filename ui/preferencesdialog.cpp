#include "ui/preferencesdialog.h"

#include "client/types.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

namespace lizard::ui {

PreferencesDialog::PreferencesDialog(int notebookLifetimeMinutes, QWidget* parent)
    : QDialog(parent), m_poolForm(new QFormLayout), m_poolNote(new QLabel(this)),
      m_lifetime(new QSpinBox(this)),
      m_extendLocal(new QCheckBox(QStringLiteral("Local sandboxes (lizard-local)"), this)),
      m_extendCloud(new QCheckBox(QStringLiteral("Cloud sandboxes (billed while they run)"), this)),
      m_colorScheme(new QComboBox(this)),
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
    m_colorScheme->setObjectName(QStringLiteral("colorScheme"));
    m_colorScheme->addItem(QStringLiteral("Follow the desktop"), int(AppTheme::Choice::System));
    m_colorScheme->addItem(QStringLiteral("Light"), int(AppTheme::Choice::Light));
    m_colorScheme->addItem(QStringLiteral("Dark"), int(AppTheme::Choice::Dark));
    auto* form = new QFormLayout;
    form->addRow(QStringLiteral("Appearance:"), m_colorScheme);
    form->addRow(QStringLiteral("New notebook lifetime:"), m_lifetime);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(hint);
    layout->addWidget(
        new QLabel(QStringLiteral("Keep a notebook's sandbox alive while you work:"), this));
    layout->addWidget(m_extendLocal);
    layout->addWidget(m_extendCloud);
    layout->addWidget(extendHint);
    auto* pools = new QGroupBox(QStringLiteral("Warm pools of this server"), this);
    auto* poolLayout = new QVBoxLayout(pools);
    auto* poolHint = new QLabel(
        QStringLiteral("lizard-local starts this many sandboxes of each template ahead of time, "
                       "so that a create or New notebook gets one at once. Each idle copy holds "
                       "a little memory; 0 turns a pool off."),
        pools);
    poolHint->setWordWrap(true);
    m_poolNote->setObjectName(QStringLiteral("warmPoolsNote"));
    m_poolNote->setWordWrap(true);
    m_poolNote->setText(QStringLiteral("Reading the warm pools…"));
    poolLayout->addWidget(poolHint);
    poolLayout->addLayout(m_poolForm);
    poolLayout->addWidget(m_poolNote);
    layout->addWidget(pools);
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

void PreferencesDialog::setColorScheme(AppTheme::Choice choice)
{
    m_colorScheme->setCurrentIndex(std::max(0, m_colorScheme->findData(int(choice))));
}

AppTheme::Choice PreferencesDialog::colorScheme() const
{
    return AppTheme::Choice(m_colorScheme->currentData().toInt());
}

void PreferencesDialog::setWarmPools(const QList<client::TemplatePool>& pools)
{
    QStringList problems;
    for (const client::TemplatePool& pool : pools) {
        auto* box = new QSpinBox(this);
        box->setObjectName(QStringLiteral("warmPool_") + pool.name);
        box->setRange(0, 16);
        box->setValue(pool.requestedPoolSize);
        box->setMinimumWidth(72);
        auto* ready =
            new QLabel(QStringLiteral("warm copies, %1 ready now").arg(pool.readyCount), this);
        auto* row = new QHBoxLayout;
        row->addWidget(box);
        row->addWidget(ready, 1);
        m_poolForm->addRow(pool.name + QLatin1Char(':'), row);
        m_poolBoxes.insert(pool.name, box);
        m_poolLoaded.insert(pool.name, pool.requestedPoolSize);
        if (!pool.poolError.isEmpty())
            problems << pool.name + QStringLiteral(": ") + pool.poolError;
    }
    m_poolNote->setText(problems.join(QLatin1Char('\n')));
    m_poolNote->setVisible(!problems.isEmpty());
}

void PreferencesDialog::setWarmPoolsUnavailable(const QString& why)
{
    m_poolNote->setText(why);
    m_poolNote->setVisible(true);
}

QMap<QString, int> PreferencesDialog::changedWarmPools() const
{
    QMap<QString, int> changed;
    for (auto it = m_poolBoxes.cbegin(); it != m_poolBoxes.cend(); ++it)
        if (it.value()->value() != m_poolLoaded.value(it.key()))
            changed.insert(it.key(), it.value()->value());
    return changed;
}

} // namespace lizard::ui
