#include "ui/lifecycle/lifecyclepanel.h"

#include "models/sandboxactions.h"
#include "models/sandboxtablemodel.h"
#include "models/timeformat.h"
#include "ui/lifecycle/lifecyclechoices.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>

namespace lizard::ui::lifecycle {

namespace {

QString pausedByText(const QString& by)
{
    if (by == QStringLiteral("idle"))
        return QStringLiteral("paused by its idle policy: its next call wakes it");
    if (by == QStringLiteral("timeout"))
        return QStringLiteral("paused at its deadline: its next call wakes it, and its lifetime "
                              "starts again");
    return QStringLiteral("paused by you: Resume wakes it");
}

} // namespace

LifecyclePanel::LifecyclePanel(QWidget* parent)
    : QWidget(parent), m_title(new QLabel(this)), m_state(new QLabel(this)),
      m_countdown(new QLabel(this)), m_onTimeout(new QComboBox(this)), m_idle(new QSpinBox(this)),
      m_apply(new QPushButton(QStringLiteral("Apply"), this)), m_note(new QLabel(this)),
      m_form(new QWidget(this))
{
    m_title->setObjectName(QStringLiteral("lifecycleTitle"));
    m_countdown->setObjectName(QStringLiteral("lifecycleCountdown"));
    QFont big = m_countdown->font();
    big.setPointSizeF(big.pointSizeF() * 1.5);
    big.setBold(true);
    m_countdown->setFont(big);
    m_state->setObjectName(QStringLiteral("lifecycleState"));
    m_state->setWordWrap(true);
    fillOnTimeoutChoices(m_onTimeout);
    setUpIdleBox(m_idle);
    m_apply->setObjectName(QStringLiteral("lifecycleApply"));
    m_note->setWordWrap(true);
    m_note->setText(QStringLiteral(
        "A sandbox a policy paused wakes on its next command, code run, file or terminal call, "
        "or request to one of its exposed ports; the first waits for the resume (a few ms)."));
    m_note->setStyleSheet(QStringLiteral("color: palette(mid);"));

    auto* form = new QFormLayout(m_form);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(QStringLiteral("Ends in:"), m_countdown);
    form->addRow(QStringLiteral("Now:"), m_state);
    form->addRow(QStringLiteral("At the end:"), m_onTimeout);
    auto* idleRow = new QHBoxLayout;
    idleRow->addWidget(m_idle);
    idleRow->addStretch(1);
    idleRow->addWidget(m_apply);
    form->addRow(QStringLiteral("Pause when unused for:"), idleRow);
    form->addRow(QString(), m_note);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_form);
    layout->addStretch(1);

    connect(m_onTimeout, &QComboBox::currentIndexChanged, this, &LifecyclePanel::updateApply);
    connect(m_idle, &QSpinBox::valueChanged, this, &LifecyclePanel::updateApply);
    connect(m_apply, &QPushButton::clicked, this, &LifecyclePanel::apply);
    m_tick.setInterval(1000);
    connect(&m_tick, &QTimer::timeout, this, &LifecyclePanel::tick);
    m_tick.start();
    showState();
}

void LifecyclePanel::setBackend(models::SandboxTableModel* table, models::SandboxActions* actions)
{
    if (m_table)
        disconnect(m_table, nullptr, this, nullptr);
    m_table = table;
    m_actions = actions;
    if (table) {
        connect(table, &QAbstractItemModel::dataChanged, this, &LifecyclePanel::showState);
        connect(table, &QAbstractItemModel::rowsInserted, this, &LifecyclePanel::showState);
        connect(table, &QAbstractItemModel::rowsRemoved, this, &LifecyclePanel::showState);
        connect(table, &QAbstractItemModel::modelReset, this, &LifecyclePanel::showState);
    }
    m_shownOnTimeout.clear();
    m_shownIdle = -1;
    showState();
}

void LifecyclePanel::showSandbox(const QString& sandboxId)
{
    if (sandboxId == m_sandboxId)
        return;
    m_sandboxId = sandboxId;
    m_shownOnTimeout.clear();
    m_shownIdle = -1;
    showState();
}

void LifecyclePanel::showState()
{
    const int row = m_table && !m_sandboxId.isEmpty() ? m_table->rowOf(m_sandboxId) : -1;
    if (row < 0) {
        m_title->setText(m_sandboxId.isEmpty()
                             ? QStringLiteral("Select a sandbox to see when "
                                              "it ends and what happens then.")
                             : QStringLiteral("Sandbox %1 is gone.").arg(m_sandboxId));
        m_form->hide();
        return;
    }
    const client::SandboxInfo& info = m_table->sandboxAt(row);
    m_title->setText(QStringLiteral("Sandbox <b>%1</b>").arg(m_sandboxId));
    m_form->show();
    const bool supported = !info.onTimeout.isEmpty();
    // The editors follow the server unless the user changed them since they were last set.
    const bool edited = m_shownIdle >= 0 && (m_onTimeout->currentData() != m_shownOnTimeout ||
                                             m_idle->value() != m_shownIdle);
    if (supported && !edited && !m_busy &&
        (info.onTimeout != m_shownOnTimeout || info.idlePauseMinutes != m_shownIdle)) {
        const QSignalBlocker b1(m_onTimeout);
        const QSignalBlocker b2(m_idle);
        m_onTimeout->setCurrentIndex(std::max(0, m_onTimeout->findData(info.onTimeout)));
        m_idle->setValue(info.idlePauseMinutes);
        m_shownOnTimeout = info.onTimeout;
        m_shownIdle = info.idlePauseMinutes;
    }
    m_onTimeout->setEnabled(supported && !m_busy);
    m_idle->setEnabled(supported && !m_busy);
    if (!supported)
        m_note->setText(QStringLiteral("This server has no lifecycle policies: the sandbox is "
                                       "killed at its deadline."));
    QString state = info.status;
    if (info.status == QStringLiteral("paused"))
        state = pausedByText(info.pausedBy);
    else if (info.status == QStringLiteral("running") && info.idlePauseMinutes > 0)
        state = QStringLiteral("running; paused after %1 min unused").arg(info.idlePauseMinutes);
    m_state->setText(state);
    tick();
    updateApply();
}

void LifecyclePanel::tick()
{
    const int row = m_table && !m_sandboxId.isEmpty() ? m_table->rowOf(m_sandboxId) : -1;
    if (row < 0 || !isVisible()) {
        if (row < 0)
            m_countdown->clear();
        return;
    }
    const client::SandboxInfo& info = m_table->sandboxAt(row);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QString text;
    if (!info.endAt.isValid()) {
        text = info.pausedBy == QStringLiteral("timeout")
                   ? QStringLiteral("no deadline while paused")
                   : QStringLiteral("no deadline");
        m_countdown->setToolTip({});
    } else {
        text = models::formatTimeLeft(info.endAt, now);
        m_countdown->setToolTip(QLocale().toString(info.endAt.toLocalTime(), QLocale::LongFormat));
    }
    const bool soon = info.endAt.isValid() && now.msecsTo(info.endAt) < 5 * 60000;
    m_countdown->setStyleSheet(soon ? QStringLiteral("color:#b26a00;") : QString());
    m_countdown->setText(text);
}

void LifecyclePanel::updateApply()
{
    const bool changed = m_shownIdle >= 0 && (m_onTimeout->currentData() != m_shownOnTimeout ||
                                              m_idle->value() != m_shownIdle);
    m_apply->setEnabled(changed && !m_busy && m_actions);
}

void LifecyclePanel::apply()
{
    if (!m_actions || m_sandboxId.isEmpty())
        return;
    m_busy = true;
    updateApply();
    const QString id = m_sandboxId;
    const QString onTimeout = m_onTimeout->currentData().toString();
    const int idle = m_idle->value();
    m_actions->setLifecycle(
        id, onTimeout, idle, this, [this, id](client::Outcome<client::LifecyclePolicy> outcome) {
            m_busy = false;
            if (!outcome) {
                emit errorOccurred(outcome.error());
            } else if (id == m_sandboxId) {
                m_shownOnTimeout = outcome.value().onTimeout;
                m_shownIdle = outcome.value().idlePauseMinutes;
                emit message(QStringLiteral("Lifecycle of %1: %2")
                                 .arg(id, policyText(outcome.value().onTimeout,
                                                     outcome.value().idlePauseMinutes)));
            }
            showState();
        });
}

} // namespace lizard::ui::lifecycle
