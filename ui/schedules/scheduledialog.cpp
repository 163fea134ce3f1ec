#include "ui/schedules/scheduledialog.h"

#include "models/schedules/schedulelistmodel.h"
#include "ui/errorlabel.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QTimeZone>
#include <QVBoxLayout>

namespace lizard::ui::schedules {

namespace {

// lizard-local's default timeout of a run (store/schedulerecords.h).
constexpr int kDefaultTimeoutSeconds = 600;

} // namespace

ScheduleDialog::ScheduleDialog(models::ScheduleListModel* model,
                               const client::SandboxSchedule* existing, QWidget* parent)
    : QDialog(parent), m_model(model), m_name(new QLineEdit(this)),
      m_useEvery(new QRadioButton(QStringLiteral("Every"), this)),
      m_useCron(new QRadioButton(QStringLiteral("Cron"), this)), m_every(new QLineEdit(this)),
      m_cron(new QLineEdit(this)), m_timezone(new QComboBox(this)),
      m_command(new QPlainTextEdit(this)), m_timeout(new QSpinBox(this)),
      m_error(new ErrorLabel(this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setObjectName(QStringLiteral("scheduleDialog"));
    setWindowTitle(existing ? QStringLiteral("Edit schedule") : QStringLiteral("Add schedule"));
    m_name->setPlaceholderText(QStringLiteral("optional, e.g. nightly backup"));
    m_every->setPlaceholderText(QStringLiteral("e.g. 5m, 90s, 1h30m, 2d"));
    m_every->setToolTip(QStringLiteral("An interval: a number of seconds, or amounts with units "
                                       "s, m, h, d"));
    m_cron->setPlaceholderText(QStringLiteral("minute hour day month weekday, e.g. 0 9 * * 1-5"));
    m_cron->setToolTip(QStringLiteral("Five fields as in crontab(5): minute, hour, day of month, "
                                      "month, day of week"));
    m_timezone->setEditable(true);
    m_timezone->setInsertPolicy(QComboBox::NoInsert);
    QStringList zones;
    for (const QByteArray& id : QTimeZone::availableTimeZoneIds())
        zones << QString::fromUtf8(id);
    if (!zones.contains(QStringLiteral("UTC")))
        zones.prepend(QStringLiteral("UTC"));
    m_timezone->addItems(zones);
    const QString local = QString::fromUtf8(QTimeZone::systemTimeZoneId());
    m_timezone->setCurrentText(local.isEmpty() ? QStringLiteral("UTC") : local);
    m_timezone->setToolTip(QStringLiteral("The IANA time zone the cron fields are read in; "
                                          "runs follow its daylight saving changes"));
    m_command->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_command->setPlaceholderText(QStringLiteral("a shell command, run by bash as root in "
                                                 "/workspace (or root's home without one)"));
    m_command->setTabChangesFocus(true);
    m_timeout->setRange(1, 86400);
    m_timeout->setValue(kDefaultTimeoutSeconds);
    m_timeout->setSuffix(QStringLiteral(" s"));
    m_timeout->setToolTip(QStringLiteral("A run still going after this long is stopped and "
                                         "counts as a failure"));
    m_buttons->button(QDialogButtonBox::Ok)
        ->setText(existing ? QStringLiteral("Save") : QStringLiteral("Add"));
    auto* kind = new QButtonGroup(this);
    kind->addButton(m_useEvery);
    kind->addButton(m_useCron);

    auto* everyRow = new QHBoxLayout;
    everyRow->addWidget(m_useEvery);
    everyRow->addWidget(m_every, 1);
    auto* cronRow = new QHBoxLayout;
    cronRow->addWidget(m_useCron);
    cronRow->addWidget(m_cron, 1);
    auto* form = new QFormLayout;
    form->addRow(QStringLiteral("Name:"), m_name);
    form->addRow(QStringLiteral("When:"), everyRow);
    form->addRow(QString(), cronRow);
    form->addRow(QStringLiteral("Time zone:"), m_timezone);
    form->addRow(QStringLiteral("Command:"), m_command);
    form->addRow(QStringLiteral("Timeout:"), m_timeout);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);

    if (existing) {
        m_scheduleId = existing->id;
        m_name->setText(existing->name);
        m_every->setText(existing->every);
        m_cron->setText(existing->cron);
        if (!existing->timezone.isEmpty())
            m_timezone->setCurrentText(existing->timezone);
        m_command->setPlainText(existing->command);
        if (existing->timeoutSeconds > 0)
            m_timeout->setValue(existing->timeoutSeconds);
    }
    (existing && !existing->cron.isEmpty() ? m_useCron : m_useEvery)->setChecked(true);
    updateKind();
    connect(m_useEvery, &QRadioButton::toggled, this, &ScheduleDialog::updateKind);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &ScheduleDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &ScheduleDialog::reject);
    resize(520, 360);
}

void ScheduleDialog::updateKind()
{
    const bool every = m_useEvery->isChecked();
    m_every->setEnabled(every);
    m_cron->setEnabled(!every);
    m_timezone->setEnabled(!every);
}

client::ScheduleSpec ScheduleDialog::spec() const
{
    client::ScheduleSpec s;
    s.name = m_name->text().trimmed();
    if (m_useEvery->isChecked()) {
        s.every = m_every->text().trimmed();
    } else {
        s.cron = m_cron->text().simplified();
        s.timezone = m_timezone->currentText().trimmed();
    }
    s.command = m_command->toPlainText();
    s.timeoutSeconds = m_timeout->value();
    return s;
}

QString ScheduleDialog::errorText() const
{
    return m_error->errorText();
}

void ScheduleDialog::accept()
{
    if (m_busy)
        return;
    const client::ScheduleSpec s = spec();
    if (m_useEvery->isChecked() && s.every.isEmpty())
        return m_error->showError(QStringLiteral("Say how often, e.g. 5m or 1h."));
    if (m_useCron->isChecked() && s.cron.isEmpty())
        return m_error->showError(QStringLiteral("Give a cron expression, e.g. 0 9 * * 1-5."));
    if (s.command.trimmed().isEmpty())
        return m_error->showError(QStringLiteral("A schedule needs a command to run."));
    if (!m_model)
        return m_error->showError(QStringLiteral("Not connected to a Lizard server."));
    m_busy = true;
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
    m_error->hide();
    auto done = [this](client::Outcome<client::SandboxSchedule> o) {
        m_busy = false;
        m_buttons->button(QDialogButtonBox::Ok)->setEnabled(true);
        if (!o.ok())
            return m_error->showError(o.error().toDisplayString());
        emit saved(o.value());
        QDialog::accept();
    };
    if (m_scheduleId.isEmpty())
        m_model->create(s, this, done);
    else
        m_model->update(m_scheduleId, s, this, done);
}

} // namespace lizard::ui::schedules
