#include "ui/lifecycle/lifecyclechoices.h"

#include <QComboBox>
#include <QSpinBox>

namespace lizard::ui::lifecycle {

void fillOnTimeoutChoices(QComboBox* box)
{
    box->addItem(QStringLiteral("Kill it (its files and memory are gone)"), QStringLiteral("kill"));
    box->addItem(QStringLiteral("Pause it (files and memory kept; resume or extend later)"),
                 QStringLiteral("pause"));
    box->setToolTip(QStringLiteral("What happens when the sandbox's lifetime has passed"));
}

void setUpIdleBox(QSpinBox* box)
{
    box->setRange(0, 10080);
    box->setSuffix(QStringLiteral(" min"));
    box->setSpecialValueText(QStringLiteral("never"));
    box->setToolTip(QStringLiteral(
        "Pause the sandbox when no command, code run, file call, terminal input or request to an "
        "exposed port used it for this long; its next call wakes it. 0 = never."));
}

QString policyText(const QString& onTimeout, int idlePauseMinutes)
{
    const QString end = onTimeout == QStringLiteral("pause")
                            ? QStringLiteral("paused at its deadline")
                            : QStringLiteral("killed at its deadline");
    const QString idle = idlePauseMinutes > 0
                             ? QStringLiteral("paused after %1 min unused").arg(idlePauseMinutes)
                             : QStringLiteral("never paused for idleness");
    return end + QStringLiteral("; ") + idle;
}

} // namespace lizard::ui::lifecycle
