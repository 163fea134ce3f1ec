#pragma once
// The lifecycle policies as the create dialog and the Lifecycle tab offer them.

#include <QString>

class QComboBox;
class QSpinBox;

namespace lizard::ui::lifecycle {

// "Kill it" (data "kill") and "Pause it" (data "pause"), kill first (the API's default).
void fillOnTimeoutChoices(QComboBox* box);
// Minutes 0..10080 (a week, the server's bound); 0 reads "never".
void setUpIdleBox(QSpinBox* box);
// "killed at its deadline; never paused for idleness"
QString policyText(const QString& onTimeout, int idlePauseMinutes);

} // namespace lizard::ui::lifecycle
