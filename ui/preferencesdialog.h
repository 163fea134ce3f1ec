#pragma once
// Lizard ▸ Preferences…: the app's own settings (stored by the app, see app/settingsstore.h).
// How long a sandbox made by "New notebook" lives, and whether a notebook in use keeps its
// sandbox alive (local and cloud sandboxes apart).

#include <QDialog>

class QCheckBox;
class QDialogButtonBox;
class QSpinBox;

namespace lizard::ui {

class PreferencesDialog : public QDialog
{
    Q_OBJECT
public:
    explicit PreferencesDialog(int notebookLifetimeMinutes, QWidget* parent = nullptr);

    int notebookLifetimeMinutes() const;
    QSpinBox* notebookLifetimeBox() const { return m_lifetime; }
    void setAutoExtend(bool local, bool cloud);
    bool autoExtendLocal() const;
    bool autoExtendCloud() const;
    QCheckBox* autoExtendLocalBox() const { return m_extendLocal; }
    QCheckBox* autoExtendCloudBox() const { return m_extendCloud; }
    QDialogButtonBox* buttons() const { return m_buttons; }

private:
    QSpinBox* m_lifetime;
    QCheckBox* m_extendLocal;
    QCheckBox* m_extendCloud;
    QDialogButtonBox* m_buttons;
};

} // namespace lizard::ui
