#include "ui/lifecycle/endwarningstrip.h"

#include "models/timeformat.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolButton>

namespace lizard::ui::lifecycle {

QString endWarningText(const client::SandboxInfo& info, const QString& where)
{
    const QString left = models::formatTimeLeft(info.endAt, QDateTime::currentDateTimeUtc());
    return QStringLiteral("Sandbox %1%2 ends in %3: it is killed then, with its files and "
                          "whatever runs in it.")
        .arg(info.sandboxId, where.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(where),
             left);
}

EndWarningStrip::EndWarningStrip(const client::SandboxInfo& info, QString where, QWidget* parent)
    : QFrame(parent), m_info(info), m_where(std::move(where)), m_label(new QLabel(this)),
      m_extend(new QPushButton(QStringLiteral("Extend %1 min").arg(kExtendMinutes), this))
{
    setObjectName(QStringLiteral("endWarning"));
    setStyleSheet(QStringLiteral(
        "#endWarning { background: #fff6dc; border: 1px solid #e6cf8b; border-radius: 4px; }"
        "#endWarning QLabel { color: #5c4600; }"));
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_extend->setToolTip(
        QStringLiteral("Give the sandbox %1 more minutes from now").arg(kExtendMinutes));
    auto* dismiss = new QToolButton(this);
    dismiss->setText(QStringLiteral("✕"));
    dismiss->setAutoRaise(true);
    dismiss->setToolTip(QStringLiteral("Dismiss (the sandbox still ends)"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 6, 6);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_extend, 0, Qt::AlignVCenter);
    layout->addWidget(dismiss, 0, Qt::AlignTop);
    connect(m_extend, &QPushButton::clicked, this, [this] {
        m_extend->setEnabled(false);
        emit extendRequested(m_info.sandboxId, kExtendMinutes);
    });
    connect(dismiss, &QToolButton::clicked, this, &QObject::deleteLater);
    m_tick.setInterval(1000);
    connect(&m_tick, &QTimer::timeout, this, &EndWarningStrip::tick);
    m_tick.start();
    tick();
}

QString EndWarningStrip::text() const
{
    return m_label->text();
}

void EndWarningStrip::setInfo(const client::SandboxInfo& info)
{
    m_info = info;
    m_extend->setEnabled(true);
    tick();
}

void EndWarningStrip::showFailure(const QString& text)
{
    m_tick.stop();
    m_extend->setEnabled(true);
    m_label->setText(endWarningText(m_info, m_where) + QStringLiteral("\nExtend failed: ") + text);
}

void EndWarningStrip::tick()
{
    m_label->setText(endWarningText(m_info, m_where));
}

} // namespace lizard::ui::lifecycle
