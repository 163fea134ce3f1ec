#pragma once
// Lizard ▸ Preferences…: the app's own settings (stored by the app, see app/settingsstore.h).
// For now, how long a sandbox made by "New notebook" lives.

#include <QDialog>

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
    QDialogButtonBox* buttons() const { return m_buttons; }

private:
    QSpinBox* m_lifetime;
    QDialogButtonBox* m_buttons;
};

} // namespace lizard::ui
