#pragma once
// "New volume": a name (the volume's key in its project) and a size in GB. Creates it through
// VolumeListModel; the server's message shows in the dialog, which stays open so nothing typed
// is lost.

#include "client/outcome.h"

#include <QDialog>
#include <QPointer>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace lizard::models {
class VolumeListModel;
}

namespace lizard::ui {

class ErrorLabel;

class NewVolumeDialog : public QDialog
{
    Q_OBJECT
public:
    explicit NewVolumeDialog(models::VolumeListModel* model, QWidget* parent = nullptr);

    QLineEdit* nameEdit() const { return m_name; }
    QSpinBox* sizeBox() const { return m_size; }
    QDialogButtonBox* buttons() const { return m_buttons; }
    QString errorText() const;

signals:
    void created(const lizard::client::Volume& volume);

public slots:
    void accept() override;

private:
    void showError(const QString& text);

    QPointer<models::VolumeListModel> m_model;
    QLineEdit* m_name;
    QSpinBox* m_size;
    ErrorLabel* m_error;
    QDialogButtonBox* m_buttons;
    bool m_busy = false;
};

} // namespace lizard::ui
