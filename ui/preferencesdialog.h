#pragma once
// Lizard ▸ Preferences…: the app's own settings (stored by the app, see app/settingsstore.h).
// How long a sandbox made by "New notebook" lives, and whether a notebook in use keeps its
// sandbox alive (local and cloud sandboxes apart). And the server's own setting of how many warm
// copies of each template lizard-local keeps (shown once read from the server). And the
// colour scheme: the desktop's, light or dark.

#include "client/types.h"
#include "ui/theme/apptheme.h"

#include <QDialog>
#include <QMap>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QFormLayout;
class QLabel;
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
    void setColorScheme(AppTheme::Choice choice);
    AppTheme::Choice colorScheme() const;
    QComboBox* colorSchemeBox() const { return m_colorScheme; }

    // Warm pools: one size box per template, each with what the server holds now.
    void setWarmPools(const QList<client::TemplatePool>& pools);
    void setWarmPoolsUnavailable(const QString& why);
    // The templates whose size the user changed, with the new size.
    QMap<QString, int> changedWarmPools() const;
    QSpinBox* warmPoolBox(const QString& templateName) const
    {
        return m_poolBoxes.value(templateName);
    }
    QLabel* warmPoolsNote() const { return m_poolNote; }

private:
    QFormLayout* m_poolForm;
    QLabel* m_poolNote;
    QMap<QString, QSpinBox*> m_poolBoxes;
    QMap<QString, int> m_poolLoaded;
    QSpinBox* m_lifetime;
    QCheckBox* m_extendLocal;
    QCheckBox* m_extendCloud;
    QComboBox* m_colorScheme;
    QDialogButtonBox* m_buttons;
};

} // namespace lizard::ui
